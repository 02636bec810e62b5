internal import CV4L2
#if canImport(Glibc)
import Glibc
#endif
internal import SystemSupport
import MediaValues

/// Owns one libv4l2 file descriptor; closing it with `v4l2_close` when the owner goes away.
struct V4L2Device: ~Copyable {
    let fd: Int32
    let path: String

    /// Opens `path` non-blocking (the capture loop waits in poll, so a stuck driver cannot hang us).
    init(path: String) throws(CaptureError) {
        let status: FileStatus
        do throws(Descriptors.Errno) { status = try Posix.status(of: path) } catch {
            throw CaptureError.from(errno: error.code, device: path, operation: "open")
        }
        if !status.isCharacterDevice {
            throw CaptureError(.notACaptureDevice, device: path, operation: "open", detail: "It is not a character device.")
        }
        let raw: Int32
        do throws(Descriptors.Errno) { raw = try Posix.open(path, O_RDWR | O_NONBLOCK | O_CLOEXEC) } catch {
            throw CaptureError.from(errno: error.code, device: path, operation: "open")
        }
        var cap = v4l2_capability()
        if cv4l2_raw_ioctl(raw, CV4L2_VIDIOC_QUERYCAP, &cap) != 0 {
            let code = Glibc.errno
            // (not a V4L2 device: nothing was done with it)
            Posix.closeAfterUse(raw)
            throw CaptureError(.notACaptureDevice, device: path, operation: "VIDIOC_QUERYCAP", errno: code,
                               detail: "It does not speak V4L2.")
        }
        let fd = cv4l2_fd_open(raw)
        if fd < 0 {
            let code = Glibc.errno
            // (as above: nothing was done with it)
            Posix.closeAfterUse(raw)
            throw CaptureError.from(errno: code, device: path, operation: "v4l2_fd_open")
        }
        self.fd = fd
        self.path = path
    }

    // A capture device, only read from: nothing is lost when its close fails.
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

// MARK: - Typed requests

extension V4L2Device {
    /// A capture buffer description for the memory-mapped queue: the one place its type and
    /// memory are set (QUERYBUF, QBUF, DQBUF and a slot's stamp all start from it).
    static func captureBuffer(index: Int? = nil) -> v4l2_buffer {
        var buf = v4l2_buffer()
        buf.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        buf.memory = CV4L2_MEMORY_MMAP
        if let index { buf.index = UInt32(index) }
        return buf
    }

    /// Every entry a VIDIOC_ENUM_* request gives, index 0 upwards, until the driver says there are
    /// no more (EINVAL) or refuses; `prepare` fills in what the request asks about.
    func enumerate<T>(_ request: UInt, _ prepare: (inout T, UInt32) -> Void, _ empty: () -> T) -> [T] {
        var entries: [T] = []
        var index: UInt32 = 0
        while true {
            var entry = empty()
            prepare(&entry, index)
            guard tryIoctl(request, &entry) == 0 else { return entries }
            entries.append(entry)
            index += 1
        }
    }

    /// The capabilities a capture node must have; anything else gets a clear "not a capture device".
    func queryCapabilities() throws(CaptureError) -> DeviceIdentity {
        var cap = v4l2_capability()
        do {
            try ioctl(CV4L2_VIDIOC_QUERYCAP, "VIDIOC_QUERYCAP", &cap)
        } catch let error where error.kind == .notACaptureDevice || error.errno == EINVAL {
            throw CaptureError(.notACaptureDevice, device: path, operation: "VIDIOC_QUERYCAP", errno: error.errno,
                               detail: "It does not speak V4L2.")
        }
        let identity = DeviceIdentity(cap)
        guard identity.deviceCaps & CV4L2_CAP_VIDEO_CAPTURE != 0 else {
            let mplane = identity.deviceCaps & CV4L2_CAP_VIDEO_CAPTURE_MPLANE != 0
            throw CaptureError(.notACaptureDevice, device: path, operation: "VIDIOC_QUERYCAP",
                               detail: mplane ? "It uses the multi-planar API, which recorder does not support yet."
                                              : "\(identity.card) (\(identity.driver)) has no video capture capability.")
        }
        guard identity.deviceCaps & CV4L2_CAP_STREAMING != 0 else {
            throw CaptureError(.notACaptureDevice, device: path, operation: "VIDIOC_QUERYCAP",
                               detail: "It does not support streaming I/O.")
        }
        return identity
    }

    /// Every format with its sizes and rates; an enumeration the driver refuses yields what it gave so far.
    func enumerateFormats() -> [FormatCapability] {
        let descriptions: [v4l2_fmtdesc] = enumerate(CV4L2_VIDIOC_ENUM_FMT, { desc, index in
            desc.index = index
            desc.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        }, { v4l2_fmtdesc() })
        return descriptions.map { desc in
            FormatCapability(pixelFormat: PixelFormat(rawValue: desc.pixelformat), fourcc: PixelFormat.fourccString(desc.pixelformat),
                             label: cString(desc.description), isEmulated: desc.flags & CV4L2_FMT_FLAG_EMULATED != 0,
                             sizes: enumerateSizes(pixelFormat: desc.pixelformat))
        }
    }

    func enumerateSizes(pixelFormat: UInt32) -> SizeOptions {
        let sizes: [v4l2_frmsizeenum] = enumerate(CV4L2_VIDIOC_ENUM_FRAMESIZES, { size, index in
            size.index = index
            size.pixel_format = pixelFormat
        }, { v4l2_frmsizeenum() })
        // A stepwise or continuous range comes as one entry.
        if let first = sizes.first, first.type != CV4L2_FRMSIZE_TYPE_DISCRETE {
            let s = first.stepwise
            return .range(min: FrameSize(width: Int(s.min_width), height: Int(s.min_height)),
                          max: FrameSize(width: Int(s.max_width), height: Int(s.max_height)),
                          step: FrameSize(width: Int(max(s.step_width, 1)), height: Int(max(s.step_height, 1))),
                          rates: enumerateRates(pixelFormat: pixelFormat, width: s.max_width, height: s.max_height))
        }
        let options = sizes.map { size in
            SizeOption(size: FrameSize(width: Int(size.discrete.width), height: Int(size.discrete.height)),
                       rates: enumerateRates(pixelFormat: pixelFormat, width: size.discrete.width, height: size.discrete.height))
        }
        return options.isEmpty ? .unknown : .discrete(options)
    }

    func enumerateRates(pixelFormat: UInt32, width: UInt32, height: UInt32) -> RateOptions {
        let intervals: [v4l2_frmivalenum] = enumerate(CV4L2_VIDIOC_ENUM_FRAMEINTERVALS, { interval, index in
            interval.index = index
            interval.pixel_format = pixelFormat
            interval.width = width
            interval.height = height
        }, { v4l2_frmivalenum() })
        if let first = intervals.first, first.type != CV4L2_FRMIVAL_TYPE_DISCRETE {
            let s = first.stepwise
            // The longest interval is the lowest rate.
            return .range(min: FrameRate(interval: s.max.numerator, s.max.denominator),
                          max: FrameRate(interval: s.min.numerator, s.min.denominator))
        }
        let rates = intervals.map { FrameRate(interval: $0.discrete.numerator, $0.discrete.denominator) }
        return rates.isEmpty ? .unknown : .discrete(rates)
    }
}
