extension MediaError {
    /// What happened to a recording, a picture or a video, with its data. Each edge words it
    /// (`OperatorWords.media`: what happened and what to do).
    package enum Reason: Sendable, Equatable, Codable {
        // FFmpeg's and the system's calls
        /// FFmpeg's `function` failed; `message`: FFmpeg's own words for its AVERROR code.
        case call(function: String, message: String)
        /// FFmpeg's `function` gave nothing back (out of memory).
        case noObject(function: String)
        /// The system call `function` failed with `errno` (also in `code`).
        case system(function: String, errno: Int32)
        // FFmpeg's libraries and codecs
        /// FFmpeg's libraries could not be loaded (`loader`: the dynamic loader's words).
        case librariesUnloadable(loader: String)
        /// FFmpeg's filter library (libavfilter, the reel's) could not be loaded.
        case filterLibraryUnloadable(loader: String)
        /// This FFmpeg build has no encoder for `codec`.
        case noEncoder(Codec)
        /// This FFmpeg build has no decoder for `codec`.
        case noDecoder(Codec)
        // Recording
        /// H.264 in yuv420p needs an even size of at least 16x16.
        case sizeNotEncodable(width: Int, height: Int)
        /// The camera's H.264 is recorded as it comes: no frame can be put on its pictures.
        case overlayOnH264
        /// Direct reads need planar 4:2:0 input and an encoder, one picture at a time (a bug).
        case directReadUnavailable
        /// A picture was committed that was never reserved (a bug).
        case noPictureReserved
        /// The recording ended with no frame: `skipped` waiting for an H.264 keyframe, `dropped`.
        case noFrameRecorded(skipped: Int, dropped: Int)
        /// libswscale cannot convert pictures of `format` at `width`x`height`.
        case cannotConvert(format: String, width: Int, height: Int)
        /// libswscale converted no line of a picture.
        case nothingConverted
        /// A frame could not be scaled to `width`x`height`.
        case cannotScale(width: Int, height: Int)
        // The preview
        /// A camera that sends H.264 has no preview picture.
        case noPreviewOfH264
        /// The camera sent a damaged JPEG.
        case damagedJPEG
        /// The frame is smaller than its format says.
        case frameShorterThanFormat
        /// The preview's encoder is not there (a bug).
        case noPreviewEncoder
        /// An error of a type the preview does not know, named.
        case unexpected(type: String)
        // A picture to put on the shots (a PNG)
        /// Its first bytes are not the PNG signature.
        case notPNG
        /// libavcodec cannot decode it.
        case pngUndecodable
        /// It is `width`x`height`, over 8192x8192.
        case pictureTooLarge(width: Int, height: Int)
        /// libswscale cannot read its pixels (`format`).
        case pixelsUnreadable(format: String)
        // Videos read back
        /// It has no readable video stream.
        case noVideoStream
        /// No picture in it can be decoded.
        case noDecodablePicture
        /// Its picture is `width`x`height`, under 16x16.
        case pictureTooSmall(width: Int, height: Int)
        // Effects
        /// The levelled sound measures as silence.
        case levelledSoundSilent
        /// It has no sound.
        case noSound
        /// Slow motion by `factor`, outside 1 to 16.
        case slowMotionFactor(factor: Double)
        /// A boomerang of `pictures` pictures; it needs at least 3.
        case boomerangTooShort(pictures: Int)
        // The reel
        /// The reel's format: an even size of at least 16x16, 1 to 120 frames a second, at most 2
        /// sound channels.
        case reelFormat(width: Int, height: Int, frameRate: Int, channels: Int)
        /// A part's picture came out as FFmpeg's pixel format `format` at `width`x`height`, not
        /// yuv420p at the reel's size.
        case reelPartFormat(format: Int32, width: Int, height: Int, reelWidth: Int, reelHeight: Int)
        /// Post `id` could not be added to the reel (its own failure is the reel's).
        case postNotAdded(id: String)
    }

    /// A codec FFmpeg may lack.
    package enum Codec: String, Sendable, Equatable, Codable {
        /// libx264, the H.264 encoder.
        case libx264
        case aac
        case mjpeg
        case png
        case gif
        /// The codec of the video being read.
        case video
    }
}
