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
        var clearArea: FrameClearArea?
    }
    private let state = Mutex(State())
    /// The branding frame (`shoot.overlay`): on the live mirror too, so a guest sees the frame
    /// their video will have.
    private let overlay: PictureOverlay?
    /// Whether a picture under the frame is mirrored first (`JPEGSnapshot.mirrorsUnderOverlay`).
    private let mirrorsUnderOverlay: Bool

    /// Whether its JPEGs are mirrored already: a frame drawn as recorded over a mirrored picture.
    package var mirrors: Bool { overlay != nil && mirrorsUnderOverlay }

    /// For the preview of `shot`: its overlay (the branding frame) drawn over each picture, as
    /// recorded; with `mirrored`, over the camera's picture turned left for right (the guest's
    /// live mirror), else over the picture as the camera sees it (the operator's).
    package convenience init(for shot: ShotRequest, mirrored: Bool = false) {
        self.init(overlay: shot.encoder.overlay, mirrorsUnderOverlay: mirrored)
    }

    package init(overlay: PictureOverlay? = nil, mirrorsUnderOverlay: Bool = false) {
        self.overlay = overlay
        self.mirrorsUnderOverlay = mirrorsUnderOverlay
    }

    /// Where the branding frame of the last JPEG leaves the picture clear (nil: no frame).
    package var frameClearArea: FrameClearArea? { state.withLock { $0.clearArea } }

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
            try self.state.withLock { state throws(MediaError) in try self.encode(picture, &state).get() }
        }
    }

    private func encode(_ picture: PreviewTap.Picture, _ state: inout State) -> Result<[UInt8], MediaError> {
        if let last = state.last, last.serial == picture.serial { return .success(last.jpeg) }
        do {
            let encoder: JPEGSnapshot
            if let existing = state.encoder { encoder = existing } else {
                encoder = try JPEGSnapshot(maximumWidth: 640, overlay: overlay, mirrorsUnderOverlay: mirrorsUnderOverlay)
            }
            state.encoder = encoder
            let jpeg = try picture.bytes.withUnsafeBytes { raw in try encoder.jpeg(of: raw, format: picture.format) }
            state.last = (picture.serial, jpeg)
            state.clearArea = encoder.frameClearArea.map { FrameClearArea(top: $0.top, bottom: $0.bottom, left: $0.left, right: $0.right) }
            return .success(jpeg)
        } catch let error as MediaError {
            return .failure(error)
        } catch {
            return .failure(MediaError(.failed, .unexpected(type: "\(type(of: error))")))
        }
    }
}
