internal import CV4L2
#if canImport(Glibc)
import Glibc
#endif
package import SystemSupport
package import MediaValues

/// A V4L2 camera, streaming through mmap buffers as in the kernel's capture.c:
/// open, query caps, negotiate format, request and map buffers, stream, dequeue/requeue, stop, unmap, close.
package final class V4L2CaptureSource: FrameSource {
    package let path: String
    package let name: String
    package private(set) var format: CaptureFormat
    /// What negotiation picked and why it differs from the request.
    package let choice: CaptureChoice
    /// How long the loop waits for a frame before declaring the camera stalled.
    package let stallTimeout: Double

    private let device: V4L2Device
    private var buffers: [UnsafeMutableRawBufferPointer] = []
    private var streaming = false
    private var closed = false
    /// v4l2loopback maps one ring to its writer and every reader, so a frame a reader still holds
    /// is overwritten once the writer comes round (two frames later by default): its frames are
    /// copied out at once and checked against the slot's sequence number afterwards.
    private let sharesBuffersWithWriter: Bool
    private var staging: UnsafeMutableRawBufferPointer?

    private static let bufferCount: UInt32 = 6
    private static let pollSliceMilliseconds: Int32 = 100

    /// Opens and configures the device; on return it is streaming. Any failure releases the device.
    package init(path: String, request: CaptureRequest, stallTimeout: Double = 5) throws(CaptureError) {
        self.path = path
        self.stallTimeout = stallTimeout
        let device = try V4L2Device(path: path)
        let caps = try device.queryCapabilities()
        self.name = "\(path) (\(caps.card))"
        self.sharesBuffersWithWriter = caps.driver == "v4l2 loopback"
        let formats = device.enumerateFormats()
        let choice = try FormatNegotiator.choose(from: formats, request: request, device: path)
        let negotiated = try Self.setFormat(device, choice: choice)
        self.choice = choice
        self.format = negotiated
        self.device = device
        do {
            try requestBuffers()
            try mapBuffers()
            try startStreaming()
        } catch {
            close()
            throw error
        }
    }

    deinit { close() }

    // MARK: - Phases

    /// VIDIOC_S_FMT then VIDIOC_S_PARM; returns what the driver actually set, which may differ.
    static func setFormat(_ device: borrowing V4L2Device, choice: CaptureChoice) throws(CaptureError) -> CaptureFormat {
        var fmt = v4l2_format()
        fmt.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        fmt.fmt.pix.width = UInt32(choice.size.width)
        fmt.fmt.pix.height = UInt32(choice.size.height)
        fmt.fmt.pix.pixelformat = choice.pixelFormat.rawValue
        fmt.fmt.pix.field = CV4L2_FIELD_NONE
        try device.ioctl(CV4L2_VIDIOC_S_FMT, "VIDIOC_S_FMT", &fmt)
        let pix = fmt.fmt.pix
        guard let actual = PixelFormat(rawValue: pix.pixelformat) else {
            throw CaptureError(.unsupportedFormat, device: device.path, operation: "VIDIOC_S_FMT",
                               detail: "the driver switched to \(PixelFormat.fourccString(pix.pixelformat)), which recorder cannot read.")
        }

        var parm = v4l2_streamparm()
        parm.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        var rate = choice.frameRate
        if device.tryIoctl(CV4L2_VIDIOC_G_PARM, &parm) == 0,
           parm.parm.capture.capability & CV4L2_CAP_TIMEPERFRAME != 0 {
            parm.parm.capture.timeperframe.numerator = UInt32(choice.frameRate.denominator)
            parm.parm.capture.timeperframe.denominator = UInt32(choice.frameRate.numerator)
            if device.tryIoctl(CV4L2_VIDIOC_S_PARM, &parm) == 0 {
                let t = parm.parm.capture.timeperframe
                if t.numerator > 0 && t.denominator > 0 { rate = FrameRate(interval: t.numerator, t.denominator) }
            }
        }
        return CaptureFormat(pixelFormat: actual, width: Int(pix.width), height: Int(pix.height),
                             bytesPerLine: actual.isCompressed ? 0 : Int(pix.bytesperline), frameRate: rate)
    }

    private func requestBuffers() throws(CaptureError) {
        var req = v4l2_requestbuffers()
        req.count = Self.bufferCount
        req.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
        req.memory = CV4L2_MEMORY_MMAP
        try device.ioctl(CV4L2_VIDIOC_REQBUFS, "VIDIOC_REQBUFS", &req)
        guard req.count >= 2 else {
            throw CaptureError(.driverFailure, device: path, operation: "VIDIOC_REQBUFS",
                               detail: "The driver granted \(req.count) buffer(s); at least 2 are needed.")
        }
        buffers.reserveCapacity(Int(req.count))
        for _ in 0..<req.count { buffers.append(UnsafeMutableRawBufferPointer(start: nil, count: 0)) }
    }

    private func mapBuffers() throws(CaptureError) {
        for index in buffers.indices {
            var buf = V4L2Device.captureBuffer(index: index)
            try device.ioctl(CV4L2_VIDIOC_QUERYBUF, "VIDIOC_QUERYBUF", &buf)
            let length = Int(buf.length)
            guard let start = cv4l2_mmap(length, device.fd, Int64(cv4l2_buffer_offset(&buf))),
                  cv4l2_map_failed(start) == 0 else {
                throw CaptureError.from(errno: Glibc.errno, device: path, operation: "mmap")
            }
            buffers[index] = UnsafeMutableRawBufferPointer(start: start, count: length)
        }
    }

    private func startStreaming() throws(CaptureError) {
        for index in buffers.indices { try queue(index) }
        var type = Int32(bitPattern: CV4L2_BUF_TYPE_VIDEO_CAPTURE)
        try device.ioctl(CV4L2_VIDIOC_STREAMON, "VIDIOC_STREAMON", &type)
        streaming = true
    }

    private func queue(_ index: Int) throws(CaptureError) {
        var buf = V4L2Device.captureBuffer(index: index)
        try device.ioctl(CV4L2_VIDIOC_QBUF, "VIDIOC_QBUF", &buf)
    }

    package func nextFrame(stop: StopSignal, _ body: (borrowing VideoFrame) -> Void) throws(CaptureError) -> Bool {
        // Time without a frame, by the clock: EAGAIN after a ready poll (a driver with nothing
        // to give after all) counts as well as poll timeouts.
        var lastProgress = MonotonicClock.nowMicroseconds()
        func checkStall() throws(CaptureError) {
            if Double(MonotonicClock.nowMicroseconds() - lastProgress) / 1_000_000 >= stallTimeout {
                throw CaptureError(.stalled(seconds: stallTimeout), device: path, operation: "poll")
            }
        }
        while !stop.isSet {
            var pfd = pollfd(fd: device.fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&pfd, 1, Self.pollSliceMilliseconds)
            if ready < 0 {
                if Glibc.errno == EINTR { continue }
                throw CaptureError.from(errno: Glibc.errno, device: path, operation: "poll")
            }
            if ready == 0 {
                try checkStall()
                continue
            }
            var buf = V4L2Device.captureBuffer()
            let code = device.tryIoctl(CV4L2_VIDIOC_DQBUF, &buf)
            if code == EAGAIN {
                if pfd.revents & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                    throw CaptureError(.disconnected, device: path, operation: "poll", errno: ENODEV)
                }
                try checkStall()
                // A driver that says ready and then has nothing would spin a core.
                Posix.pause(microseconds: 2_000)
                continue
            }
            if code != 0 { throw CaptureError.from(errno: code, device: path, operation: "VIDIOC_DQBUF") }
            lastProgress = MonotonicClock.nowMicroseconds()

            let index = Int(buf.index)
            guard buffers.indices.contains(index) else {
                throw CaptureError(.driverFailure, device: path, operation: "VIDIOC_DQBUF",
                                   detail: "The driver returned buffer \(index) of \(buffers.count).")
            }
            let used = buf.bytesused > 0 ? min(Int(buf.bytesused), buffers[index].count) : buffers[index].count
            let stamped = cv4l2_buffer_timestamp_us(&buf)
            let timestamp = stamped > 0 ? stamped : MonotonicClock.nowMicroseconds()
            var bytes = UnsafeRawBufferPointer(rebasing: buffers[index][0..<used])
            var damaged = buf.flags & CV4L2_BUF_FLAG_ERROR != 0
            if sharesBuffersWithWriter {
                bytes = copyOut(bytes)
                // The writer came round while the copy ran: the copy may mix two frames. A writer
                // that queues buffers leaves the sequence at 0, so the timestamp is compared too.
                if let now = slotStamp(index), now.sequence != buf.sequence || now.timestamp != stamped {
                    damaged = true
                }
            }
            let frame = VideoFrame(format: format, bytes: bytes, timestampMicroseconds: timestamp,
                                   sequence: UInt64(buf.sequence), isDamaged: damaged)
            body(frame)
            try queue(index)
            return true
        }
        return false
    }

    /// Copies a frame into the source's own staging memory, kept for the next frames.
    private func copyOut(_ bytes: UnsafeRawBufferPointer) -> UnsafeRawBufferPointer {
        if staging == nil || staging!.count < bytes.count {
            staging?.deallocate()
            staging = .allocate(byteCount: max(bytes.count, 1), alignment: 64)
        }
        staging!.copyMemory(from: bytes)
        return UnsafeRawBufferPointer(rebasing: staging![0..<bytes.count])
    }

    /// The sequence number and timestamp the driver now reports for a buffer slot (VIDIOC_QUERYBUF).
    private func slotStamp(_ index: Int) -> (sequence: UInt32, timestamp: Int64)? {
        var buf = V4L2Device.captureBuffer(index: index)
        guard device.tryIoctl(CV4L2_VIDIOC_QUERYBUF, &buf) == 0 else { return nil }
        return (buf.sequence, cv4l2_buffer_timestamp_us(&buf))
    }

    /// Stops streaming and unmaps; the descriptor itself closes when the source is released.
    package func close() {
        guard !closed else { return }
        closed = true
        staging?.deallocate()
        staging = nil
        // Stopping: a driver that refuses (a device unplugged) is released all the same below.
        if streaming {
            var type = Int32(bitPattern: CV4L2_BUF_TYPE_VIDEO_CAPTURE)
            _ = device.tryIoctl(CV4L2_VIDIOC_STREAMOFF, &type)
            streaming = false
        }
        for buffer in buffers where buffer.baseAddress != nil {
            // (fails only for a mapping that is not there: then there is nothing to unmap)
            _ = cv4l2_munmap(buffer.baseAddress, buffer.count)
        }
        if !buffers.isEmpty {
            buffers.removeAll()
            // Releasing the driver's buffers lets another process take the device right away.
            var req = v4l2_requestbuffers()
            req.count = 0
            req.type = CV4L2_BUF_TYPE_VIDEO_CAPTURE
            req.memory = CV4L2_MEMORY_MMAP
            _ = device.tryIoctl(CV4L2_VIDIOC_REQBUFS, &req)
        }
    }
}

/// Driver and card names from VIDIOC_QUERYCAP.
struct DeviceIdentity {
    var driver: String
    var card: String
    var busInfo: String
    var deviceCaps: UInt32

    init(_ cap: v4l2_capability) {
        driver = cString(cap.driver)
        card = cString(cap.card)
        busInfo = cString(cap.bus_info)
        deviceCaps = cap.capabilities & CV4L2_CAP_DEVICE_CAPS != 0 ? cap.device_caps : cap.capabilities
    }
}

/// Reads a fixed-size, NUL-padded C char array (imported as a tuple) as a String.
func cString<T>(_ tuple: T) -> String {
    withUnsafeBytes(of: tuple) { raw in
        let bytes = raw.prefix { $0 != 0 }
        return String(decoding: bytes, as: UTF8.self)
    }
}
