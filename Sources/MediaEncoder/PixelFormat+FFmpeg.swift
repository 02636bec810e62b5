internal import CFFmpeg
import VideoCapture
import MediaValues

extension PixelFormat {
    /// The libav pixel format with the same memory layout (YV12 maps to YUV420P with U and V swapped).
    var avPixelFormat: AVPixelFormat {
        switch self {
        case .yuyv: AV_PIX_FMT_YUYV422
        case .yvyu: AV_PIX_FMT_YVYU422
        case .uyvy: AV_PIX_FMT_UYVY422
        case .nv12: AV_PIX_FMT_NV12
        case .nv21: AV_PIX_FMT_NV21
        case .yu12, .yv12: AV_PIX_FMT_YUV420P
        case .yuv422p: AV_PIX_FMT_YUV422P
        case .rgb24: AV_PIX_FMT_RGB24
        case .bgr24: AV_PIX_FMT_BGR24
        case .xbgr32: AV_PIX_FMT_BGR0
        case .abgr32: AV_PIX_FMT_BGRA
        case .rgb565: AV_PIX_FMT_RGB565LE
        case .grey: AV_PIX_FMT_GRAY8
        case .mjpeg, .jpeg, .h264: AV_PIX_FMT_NONE
        }
    }
}

/// Plane pointers and strides of one contiguous raw image, as V4L2's single-planar API lays it out:
/// chroma planes follow the luma plane, with half the luma stride for planar 4:2:x formats.
struct ImagePlanes {
    var data: [UnsafePointer<UInt8>?] = [nil, nil, nil, nil]
    var linesize: [Int32] = [0, 0, 0, 0]

    /// Bytes a buffer of `format` must hold for every plane to be inside it.
    static func requiredBytes(_ format: CaptureFormat) -> Int {
        let stride = format.bytesPerLine, h = format.height, ch = (h + 1) / 2
        switch format.pixelFormat {
        case .yu12, .yv12, .nv12, .nv21: return stride * h + stride * ch
        case .yuv422p: return 2 * stride * h
        default: return stride * h
        }
    }

    init(_ format: CaptureFormat, base: UnsafeRawPointer) {
        let bytes = base.assumingMemoryBound(to: UInt8.self)
        let stride = format.bytesPerLine
        let h = format.height, ch = (h + 1) / 2
        data[0] = UnsafePointer(bytes)
        linesize[0] = Int32(stride)
        switch format.pixelFormat {
        case .yu12, .yv12:
            let u = bytes + stride * h, v = u + (stride / 2) * ch
            let swap = format.pixelFormat == .yv12
            data[1] = UnsafePointer(swap ? v : u)
            data[2] = UnsafePointer(swap ? u : v)
            linesize[1] = Int32(stride / 2)
            linesize[2] = Int32(stride / 2)
        case .yuv422p:
            let u = bytes + stride * h, v = u + (stride / 2) * h
            data[1] = UnsafePointer(u)
            data[2] = UnsafePointer(v)
            linesize[1] = Int32(stride / 2)
            linesize[2] = Int32(stride / 2)
        case .nv12, .nv21:
            data[1] = UnsafePointer(bytes + stride * h)
            linesize[1] = Int32(stride)
        default:
            break
        }
    }
}
