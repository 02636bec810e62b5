import Settings
import Failures
import Shooting
import Synchronization
import SystemSupport
import KioskHTTP
import KioskState

extension LivePreview {
    /// A still of the camera with the frame `which` over it, as a shot would record it: an
    /// upload's id, "saved" (the saved `shoot.overlay`), or "none".
    func still(frame which: String, event: EventSettings) async throws(APIError) -> [UInt8] {
        let path: String
        switch which {
        case "none": path = ""
        case "saved": path = await BlockingWork.run { event.running.readAgain().text("shoot.overlay") ?? "" }
        default:
            guard EventSettings.isUploadID(which) else {
                throw .badRequest("frame is an upload's id (POST /api/admin/frame), saved, or none.")
            }
            path = event.framePath(which)
        }
        let encoder = try await BlockingWork.run { () throws(APIError) -> SnapshotEncoder in
            if let known = self.framed.withLock({ $0[path] }) { return known }
            do throws(RecorderError) {
                let made = try SnapshotEncoder.framed(path, origin: "the operator page")
                self.framed.withLock { stills in
                    // (a few frames at most are looked at: the latest ones)
                    if stills.count > 8 { stills.removeAll() }
                    stills[path] = made
                }
                return made
            } catch {
                throw APIError(error)
            }
        }
        return try await jpeg(with: encoder)
    }
}
