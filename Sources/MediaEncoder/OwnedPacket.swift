internal import CFFmpeg
import MediaValues

/// An AVPacket freed with its owner. As a stored property it is also freed when the owner's
/// initialiser fails part way, which a raw pointer freed in `deinit` is not (no deinit runs then).
final class OwnedPacket {
    let pointer: UnsafeMutablePointer<AVPacket>

    init() throws(MediaError) {
        guard let packet = cff_av_packet_alloc() else { throw MediaError(.failed, .noObject(function: "av_packet_alloc")) }
        pointer = packet
    }

    deinit {
        var p: UnsafeMutablePointer<AVPacket>? = pointer
        cff_av_packet_free(&p)
    }
}

extension OwnedPacket {
    /// A copy of `packet`: its own fields, its data shared by reference count.
    convenience init(cloning packet: UnsafePointer<AVPacket>) throws(MediaError) {
        try self.init()
        try MediaError.check(cff_av_packet_ref(pointer, packet), "av_packet_ref")
    }
}
