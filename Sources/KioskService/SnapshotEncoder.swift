import FoundationEssentials
import HTTPTypes
import Logging
import MediaEncoder
import RecorderCore
import Synchronization
import StorageUpload
import SystemSupport
import VideoCapture

/// Encodes preview JPEGs on `BlockingWork`'s threads (libavcodec work never runs on the
/// cooperative pool), once per picture however many viewers ask.
///
/// `@unchecked Sendable`: `encoder` and `last` are touched only with `lock` held, so one picture
/// is encoded at a time and a viewer asking for the same picture gets the JPEG already made.
final class SnapshotEncoder: @unchecked Sendable {
    private let lock = Lock()
    private var encoder: JPEGSnapshot?
    private var last: (serial: UInt64, jpeg: [UInt8])?

    func jpeg(of picture: PreviewTap.Picture) async throws(MediaError) -> [UInt8] {
        try await BlockingWork.run { () throws(MediaError) in try self.lock.withLock { () throws(MediaError) in try self.encode(picture).get() } }
    }

    private func encode(_ picture: PreviewTap.Picture) -> Result<[UInt8], MediaError> {
        if let last, last.serial == picture.serial { return .success(last.jpeg) }
        do {
            let encoder: JPEGSnapshot
            if let existing = self.encoder { encoder = existing } else { encoder = try JPEGSnapshot(maximumWidth: 640) }
            self.encoder = encoder
            let jpeg = try picture.bytes.withUnsafeBytes { raw in try encoder.jpeg(of: raw, format: picture.format) }
            last = (picture.serial, jpeg)
            return .success(jpeg)
        } catch let error as MediaError {
            return .failure(error)
        } catch {
            return .failure(MediaError(.failed, operation: "preview", detail: "\(error)"))
        }
    }
}
