/// A pixel format a frame can arrive in, named after its V4L2 fourcc.
package enum PixelFormat: UInt32, Sendable, CaseIterable, CustomStringConvertible {
    case yuyv = 0x5659_5559  // 'YUYV'
    case yvyu = 0x5559_5659  // 'YVYU'
    case uyvy = 0x5956_5955  // 'UYVY'
    case nv12 = 0x3231_564E  // 'NV12'
    case nv21 = 0x3132_564E  // 'NV21'
    case yu12 = 0x3231_5559  // 'YU12' (V4L2_PIX_FMT_YUV420)
    case yv12 = 0x3231_5659  // 'YV12' (V4L2_PIX_FMT_YVU420)
    case yuv422p = 0x5032_3234  // '422P'
    case rgb24 = 0x3342_4752  // 'RGB3'
    case bgr24 = 0x3352_4742  // 'BGR3'
    case xbgr32 = 0x3432_5258  // 'XR24': B, G, R, X in memory
    case abgr32 = 0x3432_5241  // 'AR24': B, G, R, A in memory
    case rgb565 = 0x5042_4752  // 'RGBP'
    case grey = 0x5945_5247  // 'GREY'
    case mjpeg = 0x4750_4A4D  // 'MJPG'
    case jpeg = 0x4745_504A  // 'JPEG'
    case h264 = 0x3436_3248  // 'H264'

    /// The four-character code, as `v4l2-ctl` prints it.
    package var fourcc: String { Self.fourccString(rawValue) }

    /// Any V4L2 fourcc code as its four characters, known to this enum or not.
    package static func fourccString(_ code: UInt32) -> String {
        String(decoding: (0..<4).map { UInt8((code >> ($0 * 8)) & 0xFF) }, as: UTF8.self)
    }

    package var description: String { name }

    /// The name users type after `--format`.
    package var name: String {
        switch self {
        case .yuyv: "yuyv"
        case .yvyu: "yvyu"
        case .uyvy: "uyvy"
        case .nv12: "nv12"
        case .nv21: "nv21"
        case .yu12: "yu12"
        case .yv12: "yv12"
        case .yuv422p: "yuv422p"
        case .rgb24: "rgb24"
        case .bgr24: "bgr24"
        case .xbgr32: "xbgr32"
        case .abgr32: "abgr32"
        case .rgb565: "rgb565"
        case .grey: "grey"
        case .mjpeg: "mjpeg"
        case .jpeg: "jpeg"
        case .h264: "h264"
        }
    }

    /// Parses a user-supplied name or fourcc (`yuyv`, `YUYV`, `i420`, `RGB3` ...).
    package init?(name: String) {
        let lowered = name.lowercased()
        let aliases: [String: PixelFormat] = [
            "i420": .yu12, "yuv420": .yu12, "yuv420p": .yu12, "yvu420": .yv12, "rgb3": .rgb24,
            "bgr3": .bgr24, "mjpg": .mjpeg, "gray": .grey, "yuyv422": .yuyv, "uyvy422": .uyvy,
            "rgb": .rgb24, "422p": .yuv422p, "xr24": .xbgr32, "ar24": .abgr32, "rgbp": .rgb565,
        ]
        if let alias = aliases[lowered] { self = alias; return }
        if let match = PixelFormat.allCases.first(where: { $0.name == lowered || $0.fourcc.lowercased() == lowered }) {
            self = match
            return
        }
        return nil
    }

    /// True for formats that need decoding (JPEG family) or carry an encoded stream (H.264).
    package var isCompressed: Bool { self == .mjpeg || self == .jpeg || self == .h264 }

    /// Relative CPU cost of turning this format into the encoder's input, lowest first:
    /// H.264 is copied as is, planar 4:2:0 goes straight to the encoder, packed YUV needs one cheap
    /// conversion, RGB a colour-space conversion, and JPEG a full decode.
    package var cpuCost: Int {
        switch self {
        case .h264: 0
        case .yu12: 1
        case .yv12, .nv12, .nv21: 2
        case .yuyv, .yvyu, .uyvy, .yuv422p: 3
        case .grey: 4
        case .rgb24, .bgr24, .xbgr32, .abgr32, .rgb565: 5
        case .mjpeg, .jpeg: 6
        }
    }

    /// Bytes of one line of the first plane for an image `width` pixels wide, when the driver
    /// does not say (test pattern and Y4M sources).
    package func minimumBytesPerLine(width: Int) -> Int {
        switch self {
        case .yuyv, .yvyu, .uyvy, .rgb565: width * 2
        case .rgb24, .bgr24: width * 3
        case .xbgr32, .abgr32: width * 4
        case .nv12, .nv21, .yu12, .yv12, .yuv422p, .grey: width
        case .mjpeg, .jpeg, .h264: 0
        }
    }

    /// Width in bytes and height in rows of each plane of a planar format, in memory order; nil for
    /// packed, semi-planar and compressed formats.
    package func planeSizes(width: Int, height: Int) -> [(width: Int, height: Int)]? {
        let chromaW = (width + 1) / 2, chromaH = (height + 1) / 2
        switch self {
        case .yu12, .yv12: return [(width, height), (chromaW, chromaH), (chromaW, chromaH)]
        case .yuv422p: return [(width, height), (chromaW, height), (chromaW, height)]
        case .grey: return [(width, height)]
        default: return nil
        }
    }

    /// Bytes of one whole uncompressed image, or nil for compressed formats.
    package func imageSize(width: Int, height: Int) -> Int? {
        let luma = width * height
        let chromaW = (width + 1) / 2, chromaH = (height + 1) / 2
        switch self {
        case .yuyv, .yvyu, .uyvy, .rgb565: return luma * 2
        case .rgb24, .bgr24: return luma * 3
        case .xbgr32, .abgr32: return luma * 4
        case .grey: return luma
        case .nv12, .nv21, .yu12, .yv12: return luma + 2 * chromaW * chromaH
        case .yuv422p: return luma + 2 * chromaW * height
        case .mjpeg, .jpeg, .h264: return nil
        }
    }
}
