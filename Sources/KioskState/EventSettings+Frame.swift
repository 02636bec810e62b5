import FoundationEssentials
import Settings
import Failures
import Publishing
import Synchronization
import Shooting
import SystemSupport
import KioskWords
package import KioskHTTP

extension EventSettings {
    /// The largest frame taken: a PNG with transparency for a 4K picture is a few MiB.
    package static let frameLimit = 16 << 20

    /// A frame kept for the page to save: its id (`{"upload": ID}` in a change), its size, and a
    /// still of the camera with it.
    package struct FrameUpload: Encodable, Sendable {
        package var upload: String
        package var width: Int
        package var height: Int
        package var still: String
    }

    /// Keeps an uploaded PNG as a frame the page may save (`shoot.overlay`): decoded as a shot
    /// decodes it (a PNG that is not one, or too large, is refused with the shot's own words),
    /// written durably as `operator/frame-ID.png`, ID from its digest.
    package func keepFrame(_ bytes: [UInt8]) async throws(APIError) -> FrameUpload {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else {
            throw .badRequest("a branding frame is a PNG (with transparency where the picture shows through); this is not one. Nothing was kept.")
        }
        let id = String(MessageAuthentication.sha256Hex(bytes).prefix(24))
        let path = framePath(id)
        return try await BlockingWork.run { () throws(APIError) -> FrameUpload in
            try self.changing.withLock { _ throws(APIError) -> FrameUpload in
                do throws(FileSystem.Failure) {
                    try FileSystem.createDirectories(self.filesDirectory, mode: 0o700)
                    try FileSystem.writeDurably(bytes, to: path)
                } catch {
                    throw APIError(.recorder(.ioFailure), "the frame was not kept: cannot \(error.operation) \(error.path): \(error.errno.description).")
                }
                let encoder: SnapshotEncoder
                do throws(RecorderError) { encoder = try SnapshotEncoder.framed(path, origin: "the operator page") } catch {
                    // (best effort: a refused upload leaves nothing; one left is removed after the next save)
                    try? Posix.unlink(path)
                    throw APIError(.recorder(.badData), OperatorWords.text(error) + " Nothing was kept.")
                }
                let size = encoder.frameSize ?? (0, 0)
                return FrameUpload(upload: id, width: size.width, height: size.height, still: "/api/admin/frame/still.jpg?frame=\(id)")
            }
        }
    }

    /// The saved frame's PNG (`shoot.overlay`), for the page to show; nil when there is none.
    package func savedFrame() async -> String? {
        await BlockingWork.run {
            let path = self.running.readAgain().text("shoot.overlay") ?? ""
            return path.isEmpty || FileSystem.status(of: path) == nil ? nil : path
        }
    }
}
