/// A directory the kiosk writes videos to, and the free space on its file system.
package struct DiskPlace: Sendable, Equatable, Codable {
    /// What it holds: the shot workspace (the current shot), the outbox (posts waiting for the
    /// store) or the local store (every post).
    package enum Role: String, Sendable, Codable {
        case workspace, outbox, store
    }

    /// Fewer hours of recording than this would stop the event (the disk check's error).
    package static let errorBelowHours = 1.0
    /// Fewer than this is worth a look (its warning).
    package static let warningBelowHours = 4.0

    package var role: Role
    package var path: String
    /// nil when statvfs cannot tell (no such directory up to the root).
    package var freeBytes: Int64?
    /// Whether videos pile up here as the event goes on (the outbox while the store is away, the
    /// local store always); the workspace holds one shot at a time.
    package var keepsVideos: Bool

    package init(role: Role, path: String, freeBytes: Int64?, keepsVideos: Bool) {
        self.role = role
        self.path = path
        self.freeBytes = freeBytes
        self.keepsVideos = keepsVideos
    }
}
