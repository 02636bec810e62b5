import FoundationEssentials
package import MediaEncoder
package import Failures
import Synchronization
import SystemSupport
import VideoCapture
package import MediaValues

/// Encodes preview JPEGs on `BlockingWork`'s threads (libavcodec work never runs on the
/// cooperative pool), once per picture however many viewers ask: one picture is encoded at a time,
/// behind a mutex, and a viewer asking for the same picture gets the JPEG already made.
package final class SnapshotEncoder: Sendable {
    private struct State {
        var encoder: JPEGSnapshot?
        var last: (serial: UInt64, jpeg: [UInt8])?
    }
    private let state = Mutex(State())
    /// The branding frame (`shoot.overlay`): on the live mirror too, so a guest sees the frame
    /// their video will have.
    private let overlay: PictureOverlay?

    /// For the preview of `shot`: its overlay (the branding frame) drawn over each picture.
    package convenience init(for shot: ShotRequest) {
        self.init(overlay: shot.encoder.overlay)
    }

    package init(overlay: PictureOverlay? = nil) {
        self.overlay = overlay
    }

    /// With the branding frame in the PNG at `path` (empty: none), read and decoded now as a shot
    /// reads it (`ShotRequest.overlay`): the operator page's look at a frame before it is saved.
    package static func framed(_ path: String, origin: String) throws(RecorderError) -> SnapshotEncoder {
        SnapshotEncoder(overlay: try ShotRequest.overlay(path, origin: origin))
    }

    /// The frame's width and height, when there is one.
    package var frameSize: (width: Int, height: Int)? {
        overlay.map { ($0.width, $0.height) }
    }

    package func jpeg(of picture: PreviewTap.Picture) async throws(MediaError) -> [UInt8] {
        try await BlockingWork.run { () throws(MediaError) in
            try self.state.withLock { state throws(MediaError) in try Self.encode(picture, overlay: self.overlay, &state).get() }
        }
    }

    private static func encode(_ picture: PreviewTap.Picture, overlay: PictureOverlay?, _ state: inout State) -> Result<[UInt8], MediaError> {
        if let last = state.last, last.serial == picture.serial { return .success(last.jpeg) }
        do {
            let encoder: JPEGSnapshot
            if let existing = state.encoder { encoder = existing } else { encoder = try JPEGSnapshot(maximumWidth: 640, overlay: overlay) }
            state.encoder = encoder
            let jpeg = try picture.bytes.withUnsafeBytes { raw in try encoder.jpeg(of: raw, format: picture.format) }
            state.last = (picture.serial, jpeg)
            return .success(jpeg)
        } catch let error as MediaError {
            return .failure(error)
        } catch {
            return .failure(MediaError(.failed, operation: "preview", detail: "\(error)"))
        }
    }
}
