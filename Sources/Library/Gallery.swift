package import FoundationEssentials
package import Publishing
import SystemSupport

/// A host's gallery: a link of its own to the posts of an event's window, from every booth that
/// posted into the store or the booths named. Its token is a capability like a guest's share
/// link's (22 random letters and digits), never a guest's: it opens under `/g/`, and only there.
/// It lives in the store (`galleries/<token>.json`), so any share server answers for it, and it
/// ends with its expiry or with retention, whichever is first (`Galleries.expiry(of:)`).
package struct Gallery: Sendable, Codable, Equatable {
    /// The capability in the link (`/g/<token>`).
    package var token: String
    /// The event's name, as the page's title and the archive's.
    package var event: String
    /// The window's first and last moment (RFC 3339, UTC): posts made in it are the gallery's.
    package var since: String
    package var until: String
    /// The booths whose posts it shows (`kiosk.id`); absent: every booth.
    package var kiosks: [String]?
    package var createdAt: String
    /// When the link stops opening, as `--expires` set it; absent: with retention alone.
    package var expiresAt: String?
    /// The highlight reel shown first, when one was given: its object's size and sums.
    package var reel: Reel?

    package struct Reel: Sendable, Codable, Equatable {
        package var size: Int64
        package var sha256: String
        package var crc32: String

        package init(size: Int64, sha256: String, crc32: String) {
            (self.size, self.sha256, self.crc32) = (size, sha256, crc32)
        }
    }

    package init(token: String, event: String, since: String, until: String, kiosks: [String]?, createdAt: String,
                 expiresAt: String?, reel: Reel? = nil) {
        (self.token, self.event, self.since, self.until, self.kiosks) = (token, event, since, until, kiosks)
        (self.createdAt, self.expiresAt, self.reel) = (createdAt, expiresAt, reel)
    }

    /// The store's folder of galleries.
    package static let folder = "galleries/"
    /// The longest event name (characters).
    package static let maximumEventLength = 100
    /// The longest `--expires` (days).
    package static let maximumExpiryDays = 3650

    package static func key(token: String) -> String { folder + token + ".json" }
    package static func reelKey(token: String) -> String { folder + token + "-reel.mp4" }

    /// The window's ends as moments (an unreadable one: the widest).
    package var window: (since: Date, until: Date) {
        (RFC3339.date(since) ?? Date(timeIntervalSince1970: 0), RFC3339.date(until) ?? .distantFuture)
    }

    /// Whether a post made at `created` by booth `kiosk` is in the gallery's window.
    package func covers(created: Date, kiosk: String?) -> Bool {
        let (since, until) = window
        let second = created.timeIntervalSince1970.rounded(.down)
        guard second >= since.timeIntervalSince1970.rounded(.down), second <= until.timeIntervalSince1970.rounded(.down) else { return false }
        guard let kiosks, !kiosks.isEmpty else { return true }
        return kiosk.map(kiosks.contains) ?? false
    }

    /// The reel as the video cache takes a post's video: its key, size and SHA-256.
    package var reelVideo: PostMetadata? {
        guard let reel else { return nil }
        let key = Self.reelKey(token: token)
        return PostMetadata(id: token, video: FilePaths.name(of: key), key: key, metadataKey: Self.key(token: token), url: key, ext: "mp4",
                            width: 0, height: 0, durationSeconds: 0, frameRate: 0, codec: "h264", byteSize: reel.size, sha256: reel.sha256,
                            caption: event, author: .init(id: "", name: event), createdAt: createdAt, camera: "", likeCount: 0,
                            shareCount: 0, commentCount: 0)
    }
}

/// One post of a gallery's page, as the page shows it.
package struct GalleryPost: Sendable, Encodable, Equatable {
    package var id: String
    package var caption: String
    /// The question the guest answered, when there was one.
    package var prompt: String?
    package var createdAt: String
    package var seconds: Double
    package var width: Int
    package var height: Int
    package var bytes: Int64
    package var poster: Bool
    /// The booth that posted it.
    package var kiosk: String?
    /// The name its download is saved under (the caption's, or the event's and the day's).
    package var file: String

    package init(_ metadata: PostMetadata) {
        id = metadata.id
        caption = metadata.caption
        prompt = metadata.prompt
        createdAt = metadata.createdAt
        seconds = metadata.durationSeconds
        (width, height, bytes) = (metadata.width, metadata.height, metadata.byteSize)
        poster = metadata.thumbnailKey != nil
        kiosk = metadata.kiosk
        file = ShareFileName.name(for: metadata)
    }
}
