#if canImport(Glibc)
import Glibc
#endif
package import SystemSupport
package import MediaValues

/// A YUV4MPEG2 file (`--device y4m:clip.y4m`), read as fast as the consumer pulls, with timestamps
/// taken from the header's frame rate. For tests and benchmarks: identical input every run.
/// Frames can be read straight into the encoder's picture (`readFrame`) or lent from a buffer.
package final class Y4MSource: PlanarReadingSource {
    package let format: CaptureFormat
    package let name: String
    private let fd: Int32
    private let planeSizes: [(width: Int, height: Int)]
    /// Only for `nextFrame`: `readFrame` reads straight into the caller's picture.
    private var frame: [UInt8] = []
    private var index: UInt64 = 0
    private var pending: [UInt8] = []

    package init(path: String) throws(CaptureError) {
        let fd: Int32
        do throws(Descriptors.Errno) { fd = try Posix.open(path, O_RDONLY | O_CLOEXEC) } catch {
            let code = error.code
            throw CaptureError(code == ENOENT ? .noSuchDevice : .badInput, device: path, operation: "open", errno: code,
                               detail: code == ENOENT ? "" : "Check the file's permissions.")
        }
        self.fd = fd
        self.name = path
        do throws(CaptureError) {
            guard let header = try Self.readLine(fd: fd, path: path, pending: &pending) else {
                throw CaptureError(.badInput, device: path, operation: "read header", detail: "the file is empty.")
            }
            format = try Self.parseHeader(header, path: path)
        } catch {
            Posix.closeAfterUse(fd)
            throw error
        }
        planeSizes = format.pixelFormat.planeSizes(width: format.width, height: format.height)!
    }

    // (a file only read)
    deinit { Posix.closeAfterUse(fd) }

    /// Parses `YUV4MPEG2 W.. H.. F..:.. C..`; other tags are ignored.
    package static func parseHeader(_ line: String, path: String) throws(CaptureError) -> CaptureFormat {
        let fields = line.split(separator: " ")
        guard fields.first == "YUV4MPEG2" else {
            throw CaptureError(.badInput, device: path, operation: "read header",
                               detail: "not a YUV4MPEG2 file (it must start with 'YUV4MPEG2'). Make one with `ffmpeg -i IN -pix_fmt yuv420p OUT.y4m`.")
        }
        var width = 0, height = 0
        var rate = FrameRate(25)
        var pixelFormat = PixelFormat.yu12
        for field in fields.dropFirst() {
            let value = field.dropFirst()
            switch field.first {
            case "W": width = Int(value) ?? 0
            case "H": height = Int(value) ?? 0
            case "F":
                let parts = value.split(separator: ":")
                if parts.count == 2, let n = Int(parts[0]), let d = Int(parts[1]), n > 0, d > 0 { rate = FrameRate(n, d) }
            case "C":
                if value.hasPrefix("420") { pixelFormat = .yu12 }
                else if value == "422" { pixelFormat = .yuv422p }
                else if value.hasPrefix("mono") { pixelFormat = .grey }
                else {
                    throw CaptureError(.unsupportedFormat, device: path, operation: "read header",
                                       detail: "Y4M colour space C\(value) is not supported; use 420, 422 or mono (`ffmpeg -i IN -pix_fmt yuv420p OUT.y4m`).")
                }
            default: break
            }
        }
        guard width > 0, height > 0, width <= 16384, height <= 16384 else {
            throw CaptureError(.badInput, device: path, operation: "read header",
                               detail: "the Y4M header has no valid size (W and H).")
        }
        return CaptureFormat(pixelFormat: pixelFormat, width: width, height: height, frameRate: rate)
    }

    /// Reads the next frame's planes from the file straight into `picture`.
    package func readFrame(into picture: PlanarPicture, stop: StopSignal) throws(CaptureError) -> FrameStamp? {
        if stop.isSet { return nil }
        guard let marker = try Self.readLine(fd: fd, path: name, pending: &pending) else { return nil }
        guard marker.hasPrefix("FRAME") else {
            throw CaptureError(.badInput, device: name, operation: "read frame \(index)",
                               detail: "expected a FRAME marker; the file is damaged.")
        }
        for (plane, size) in planeSizes.enumerated() {
            let base = picture.planes[plane], stride = picture.strides[plane]
            if stride == size.width {
                try readExactly(into: base, count: size.width * size.height)
            } else {
                for row in 0..<size.height { try readExactly(into: base + row * stride, count: size.width) }
            }
        }
        let timestamp = Int64(index) * 1_000_000 * Int64(format.frameRate.denominator) / Int64(format.frameRate.numerator)
        defer { index += 1 }
        return FrameStamp(timestampMicroseconds: timestamp, sequence: index)
    }

    package func nextFrame(stop: StopSignal, _ body: (borrowing VideoFrame) -> Void) throws(CaptureError) -> Bool {
        if frame.isEmpty { frame = [UInt8](repeating: 0, count: planeSizes.reduce(0) { $0 + $1.width * $1.height }) }
        // As a Result: the closure's typed error does not cross `withUnsafeMutableBytes`.
        let read = frame.withUnsafeMutableBytes { buffer -> Result<FrameStamp?, CaptureError> in
            var planes: [UnsafeMutablePointer<UInt8>] = []
            var offset = 0
            for size in planeSizes {
                planes.append(buffer.baseAddress!.assumingMemoryBound(to: UInt8.self) + offset)
                offset += size.width * size.height
            }
            let picture = PlanarPicture(planes: planes, strides: planeSizes.map(\.width))
            return Result { () throws(CaptureError) in try readFrame(into: picture, stop: stop) }
        }
        guard let stamp = try read.get() else { return false }
        frame.withUnsafeBytes { bytes in
            body(VideoFrame(format: format, bytes: bytes, timestampMicroseconds: stamp.timestampMicroseconds,
                            sequence: stamp.sequence))
        }
        return true
    }

    /// Fills `count` bytes at `destination` from what `readLine` read ahead, then from the file.
    private func readExactly(into destination: UnsafeMutablePointer<UInt8>, count: Int) throws(CaptureError) {
        var filled = min(pending.count, count)
        if filled > 0 {
            pending.withUnsafeBufferPointer { destination.update(from: $0.baseAddress!, count: filled) }
            pending.removeFirst(filled)
        }
        while filled < count {
            // Modest reads: one multi-megabyte read(2) per frame copies several times slower
            // (measured: 19% of a 1080p shoot's CPU against 2% for ffmpeg's 32 KiB reads).
            // (a failed read ends the frame as the end of the file does)
            let n = (try? Posix.read(fd, into: UnsafeMutableRawBufferPointer(start: destination + filled, count: min(count - filled, 1 << 16)))) ?? 0
            if n == 0 {
                throw CaptureError(.badInput, device: name, operation: "read frame \(index)",
                                   detail: "the file ends inside a frame; it was truncated.")
            }
            filled += n
        }
    }

    package func close() {}

    /// Reads up to a newline, keeping whatever was read past it in `pending`; nil at the end of the file.
    static func readLine(fd: Int32, path: String, pending: inout [UInt8]) throws(CaptureError) -> String? {
        while true {
            if let newline = pending.firstIndex(of: 10) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeFirst(newline + 1)
                return line
            }
            if pending.count > 4096 {
                throw CaptureError(.badInput, device: path, operation: "read", detail: "a header line is too long; the file is not Y4M.")
            }
            // (a failed read ends the header as the end of the file does)
            guard let chunk = try? Posix.read(fd, count: 256), !chunk.isEmpty else { return nil }
            pending.append(contentsOf: chunk)
        }
    }
}
