import CV4L2
#if canImport(Glibc)
import Glibc
#endif

/// Owns one libv4l2 file descriptor; closing it with `v4l2_close` when the owner goes away.
struct V4L2Device: ~Copyable {
    let fd: Int32
    let path: String

    /// Opens `path` non-blocking (the capture loop waits in poll, so a stuck driver cannot hang us).
    init(path: String) throws(CaptureError) {
        var info = stat()
        if stat(path, &info) != 0 {
            throw CaptureError.from(errno: Glibc.errno, device: path, operation: "open")
        }
        if (info.st_mode & S_IFMT) != S_IFCHR {
            throw CaptureError(.notACaptureDevice, device: path, operation: "open", detail: "It is not a character device.")
        }
        let raw = open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC)
        if raw < 0 {
            throw CaptureError.from(errno: Glibc.errno, device: path, operation: "open")
        }
        var cap = v4l2_capability()
        if cv4l2_raw_ioctl(raw, CV4L2_VIDIOC_QUERYCAP, &cap) != 0 {
            let code = Glibc.errno
            Glibc.close(raw)
            throw CaptureError(.notACaptureDevice, device: path, operation: "VIDIOC_QUERYCAP", errno: code,
                               detail: "It does not speak V4L2.")
        }
        let fd = cv4l2_fd_open(raw)
        if fd < 0 {
            let code = Glibc.errno
            Glibc.close(raw)
            throw CaptureError.from(errno: code, device: path, operation: "v4l2_fd_open")
        }
        self.fd = fd
        self.path = path
    }

    deinit {
        _ = cv4l2_close(fd)
    }

    /// The one place an ioctl is issued: retries EINTR and turns failures into a typed error.
    func ioctl<T>(_ request: UInt, _ name: String, _ argument: inout T) throws(CaptureError) {
        while true {
            let result = withUnsafeMutablePointer(to: &argument) { cv4l2_ioctl(fd, request, $0) }
            if result >= 0 { return }
            let code = Glibc.errno
            if code == EINTR { continue }
            throw CaptureError.from(errno: code, device: path, operation: name)
        }
    }

    /// Like `ioctl`, but returns the errno instead of throwing, for enumeration loops that end on EINVAL.
    func tryIoctl<T>(_ request: UInt, _ argument: inout T) -> Int32 {
        while true {
            let result = withUnsafeMutablePointer(to: &argument) { cv4l2_ioctl(fd, request, $0) }
            if result >= 0 { return 0 }
            let code = Glibc.errno
            if code != EINTR { return code }
        }
    }
}
