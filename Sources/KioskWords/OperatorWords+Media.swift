import Glibc
import SystemSupport
import MediaValues

/// The encoder's failures (a recording, a picture, a video read back, an effect, the reel) in the
/// operator's words: what happened, by its reason, then what to do, by its kind.
extension OperatorWords {
    static func media(_ error: MediaError) -> String {
        let what = mediaWhat(error)
        switch error.kind {
        case .diskFull:
            return "the disk is full while writing\(error.path.map { " \($0)" } ?? "") (\(error.call ?? what)). Free some space; the previous shot was kept."
        case .permissionDenied:
            return "permission denied writing\(error.path.map { " \($0)" } ?? "") (\(error.call ?? what))."
        case .missingCodec:
            if case .filterLibraryUnloadable = error.reason { return what }
            return what + " Install FFmpeg's libraries with `apt-get install libavcodec59 libavformat59 libswscale6 libswresample4 libavutil57` (scripts/setup.sh does); the previous shot was kept."
        case .badInput:
            // (bare: the shot's, the bookend's and the reel's failures quote it inside a sentence)
            return what.hasSuffix(".") ? String(what.dropLast()) : what
        case .failed:
            return (what.hasSuffix(".") ? what : what + ".") + " The previous shot was kept; try again, and if it repeats, report this message with the camera's name and format."
        }
    }

    /// What happened, as one sentence.
    static func mediaWhat(_ error: MediaError) -> String {
        let file = error.path ?? "the file"
        let forFile = error.path.map { " for \($0)" } ?? ""
        switch error.reason {
        case .call(let function, let message): return "\(function) failed\(forFile): \(message)"
        case .noObject(let function): return "\(function) failed\(forFile): out of memory"
        case .system("read", EFBIG): return "\(file) is larger than 64 MiB: is it the right file?"
        case .system(let function, let code): return "\(function) failed\(forFile): \(errno(code))"
        case .librariesUnloadable(let loader): return "FFmpeg's libraries could not be opened (\(loader))."
        case .filterLibraryUnloadable(let loader):
            return "FFmpeg's filter library could not be opened (\(loader)). Install it with `apt-get install libavfilter8` (scripts/setup.sh does)."
        case .noEncoder(let codec): return "This FFmpeg build has no \(codecName(codec)) encoder."
        case .noDecoder(.video): return "This FFmpeg build cannot decode the video."
        case .noDecoder(let codec): return "This FFmpeg build has no \(codecName(codec)) decoder."
        case .sizeNotEncodable(let width, let height):
            return "H.264 in yuv420p needs an even size of at least 16x16; \(error.path.map { "the picture of \($0) is" } ?? "the source gives") \(width)x\(height)."
        case .overlayOnH264:
            return "the camera's H.264 is recorded as it comes, so no frame can be put on its pictures. Ask the camera for MJPEG or YUYV pictures instead (its format setting), or leave the overlay out."
        case .directReadUnavailable: return "internal error: direct reads need planar 4:2:0 input and an encoder, and one picture at a time."
        case .noPictureReserved: return "internal error: a picture was committed that was never reserved."
        case .noFrameRecorded(let skipped, let dropped):
            return "no frame was recorded (\(skipped) skipped while waiting for an H.264 keyframe, \(dropped) dropped)."
        case .cannotConvert(let format, let width, let height): return "libswscale cannot convert \(format) \(width)x\(height)."
        case .nothingConverted: return "libswscale converted no line of the picture."
        case .cannotScale(let width, let height): return "the picture of \(file) cannot be scaled to \(width)x\(height)."
        case .noPreviewOfH264: return "an H.264 camera has no preview picture."
        case .damagedJPEG: return "the camera sent a damaged JPEG."
        case .frameShorterThanFormat: return "the frame is smaller than its format says."
        case .noPreviewEncoder: return "internal error: the preview has no encoder."
        case .unexpected(let type): return "internal error: the preview failed with an error of type \(type)."
        case .notPNG: return "\(file) is not a PNG (its first bytes are not the PNG signature)."
        case .pngUndecodable: return "libavcodec cannot decode \(file) (a damaged PNG?)."
        case .pictureTooLarge(let width, let height): return "\(file) is \(width)x\(height); at most 8192x8192."
        case .pixelsUnreadable(let format): return "libswscale cannot read the pixels of \(file) (\(format))."
        case .noVideoStream: return "\(file) has no readable video stream."
        case .noDecodablePicture: return "\(file) has no picture that can be decoded."
        case .pictureTooSmall(let width, let height): return "the picture of \(file) is \(width)x\(height), under 16x16."
        case .levelledSoundSilent: return "the levelled sound of \(file) measures as silence."
        case .noSound: return "\(file) has no sound to level."
        case .slowMotionFactor(let factor): return "slow motion of \(file) by a factor of \(String(cFormat: "%g", factor)): it must be from 1 to 16."
        case .boomerangTooShort(let pictures): return "\(file) has \(pictures == 1 ? "1 picture" : "\(pictures) pictures"); a boomerang needs at least 3."
        case .reelFormat(let width, let height, let frameRate, let channels):
            return "the reel needs an even size of at least 16x16, 1 to 120 frames a second and at most 2 sound channels (got \(width)x\(height) at \(frameRate), \(channels) channels)."
        case .reelPartFormat(let format, let width, let height, let reelWidth, let reelHeight):
            return "internal error: a part of the reel came out as pixel format \(format) at \(width)x\(height), not yuv420p at \(reelWidth)x\(reelHeight)."
        case .postNotAdded(let id): return "post \(id) cannot be added to the reel."
        }
    }

    private static func codecName(_ codec: MediaError.Codec) -> String {
        switch codec {
        case .libx264: "libx264"
        case .aac: "AAC"
        case .mjpeg: "MJPEG"
        case .png: "PNG"
        case .gif: "GIF"
        case .video: "video"
        }
    }
}
