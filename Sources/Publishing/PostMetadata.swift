package import FoundationEssentials
package import StorageUpload
internal import SystemSupport
package import Settings
package import Failures
package import ShotValues

/// The JSON document stored beside each posted video (`posts/<id>.json` next to `videos/<id>.mp4`).
package struct PostMetadata: Sendable, Codable, Equatable {
    package struct Author: Sendable, Codable, Equatable {
        package var id: String
        package var name: String

        package init(id: String, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// 10 characters from [A-Za-z0-9]; also the video's file name without `.mp4`.
    package var id: String
    /// `<id>.mp4`.
    package var video: String
    /// The video's key in the store, relative to its prefix: `videos/<id>.mp4`.
    package var key: String
    /// The metadata's own key: `posts/<id>.json`.
    package var metadataKey: String
    /// Where the video is (or will be) in the store the outbox sends it to.
    package var url: String
    package var ext: String
    package var width: Int
    package var height: Int
    package var durationSeconds: Double
    package var frameRate: Double
    package var codec: String
    package var byteSize: Int64
    /// Lowercase hex SHA-256 of the video.
    package var sha256: String
    package var caption: String
    package var author: Author
    /// UTC, RFC 3339 (e.g. 2026-11-22T09:30:00Z).
    package var createdAt: String
    /// The capture source, e.g. `/dev/video0 (vivid)` or `testsrc`.
    package var camera: String
    package var likeCount: Int
    package var shareCount: Int
    package var commentCount: Int
    /// The sound track (codec, rate, channels, overruns, an early end); null for a silent video.
    @NullWhenAbsent package var audio: ShotAudio?
    /// A link that opens the video on a phone (ShareLinks), when the store gives one; absent
    /// otherwise. Made at upload: a presigned one stops working at `shareExpiresAt`.
    package var shareURL: String?
    package var shareExpiresAt: String?
    /// The poster's key in the store (`thumbs/<id>.jpg`: the picture about a second in, at most
    /// 640 wide) and its address; absent until it is stored, and for a video no poster could be made of.
    package var thumbnailKey: String?
    package var thumbnailURL: String?
    /// The capability in the kiosk's own share page link (`/s/<token>`): 22 random letters and
    /// digits (131 bits), not the post id, so a link opens this one post and guesses open none.
    package var shareToken: String?
    /// The guest's yes this was recorded under, when the kiosk asked (`kiosk.consent`); the text
    /// is in the store at `Consent.textKey(sha256:)`.
    package var consent: Consent? = nil
    /// The question the guest answered, as the kiosk showed it (`kiosk.prompts`); absent when none was.
    package var prompt: String? = nil
    /// The kiosk that posted it (`kiosk.id`), which its index object's key carries; absent in posts
    /// made before kiosks had ids.
    package var kiosk: String? = nil
    /// The video's CRC-32 (8 lowercase hex digits), which a ZIP archive of the post needs before
    /// its bytes (a host's Download all); absent in posts made before it was taken.
    package var crc32: String? = nil
    /// The SHA-256 (lowercase hex) of the delete claim the booth gives the guest's phone
    /// (`ShareClaims`): any share server checks the phone's cookie against it, at home too; absent
    /// for a post no phone may delete (posted from the command line, or before claims were here).
    package var deleteClaim: String? = nil
    /// The effect the video was made into (`shoot.effect`), with the take it was made from, stored
    /// beside it (`effect.original.key`: `takes/<id>.mp4`); absent for none.
    package var effect: ShotEffect? = nil

    package init(id: String, video: String, key: String, metadataKey: String, url: String, ext: String, width: Int, height: Int,
                 durationSeconds: Double, frameRate: Double, codec: String, byteSize: Int64, sha256: String, caption: String,
                 author: Author, createdAt: String, camera: String, likeCount: Int, shareCount: Int, commentCount: Int,
                 audio: ShotAudio? = nil, shareURL: String? = nil, shareExpiresAt: String? = nil, thumbnailKey: String? = nil,
                 thumbnailURL: String? = nil, shareToken: String? = nil, consent: Consent? = nil, prompt: String? = nil, kiosk: String? = nil,
                 crc32: String? = nil, deleteClaim: String? = nil) {
        (self.id, self.video, self.key, self.metadataKey, self.url, self.ext) = (id, video, key, metadataKey, url, ext)
        (self.width, self.height, self.durationSeconds, self.frameRate, self.codec) = (width, height, durationSeconds, frameRate, codec)
        (self.byteSize, self.sha256, self.caption, self.author, self.createdAt, self.camera) = (byteSize, sha256, caption, author, createdAt, camera)
        (self.likeCount, self.shareCount, self.commentCount) = (likeCount, shareCount, commentCount)
        self.audio = audio
        (self.shareURL, self.shareExpiresAt, self.thumbnailKey, self.thumbnailURL) = (shareURL, shareExpiresAt, thumbnailKey, thumbnailURL)
        (self.shareToken, self.consent, self.prompt, self.kiosk) = (shareToken, consent, prompt, kiosk)
        (self.crc32, self.deleteClaim) = (crc32, deleteClaim)
    }

    package static func videoKey(id: String) -> String { "videos/\(id).mp4" }
    /// Where the take an effect was made from is stored.
    package static func originalKey(id: String) -> String { "takes/\(id).mp4" }

    /// A boomerang was made of it: its video is a loop.
    package var isBoomerang: Bool { effect?.name == .boomerang && effect?.original != nil }

    /// The take this post's effect was made from, as a post of its own for fetching and serving
    /// it (its key, size and checksum); nil when there is none.
    package var original: PostMetadata? {
        guard let take = effect?.original, take.key != nil, let sha256 = take.sha256 else { return nil }
        var original = self
        original.key = Self.originalKey(id: id)
        original.video = "\(id)-take.mp4"
        original.byteSize = take.byteSize
        original.sha256 = sha256
        original.durationSeconds = take.durationSeconds
        original.effect = nil
        // (the CRC-32 is the effect's video's, not the take's)
        original.crc32 = nil
        return original
    }
    package static func metadataKey(id: String) -> String { "posts/\(id).json" }
    package static func thumbnailKey(id: String) -> String { "thumbs/\(id).jpg" }
    /// Where the sums a post's metadata lacks are kept once computed (its CRC-32, for an older post).
    package static func sumsKey(id: String) -> String { "sums/\(id).json" }

    /// The metadata as read from a store, with nothing in it believed that says where to find
    /// something: the keys and addresses are made again from the (checked) id, a poster's key only
    /// when the document says there is one, and a share token only when it has a token's form. A
    /// store anyone else can write to cannot make the kiosk read `../../run/credentials/...`.
    package func trusted(in store: any StorageBackend) -> PostMetadata {
        var metadata = self
        metadata.video = "\(id).mp4"
        metadata.key = Self.videoKey(id: id)
        metadata.metadataKey = Self.metadataKey(id: id)
        metadata.url = store.url(forKey: metadata.key)
        if thumbnailKey != nil {
            metadata.thumbnailKey = Self.thumbnailKey(id: id)
            metadata.thumbnailURL = store.url(forKey: Self.thumbnailKey(id: id))
        } else {
            metadata.thumbnailURL = nil
        }
        if let token = shareToken, !ShareToken.isValid(token) { metadata.shareToken = nil }
        metadata.consent = consent?.trusted
        // (shown on pages: a store's text is escaped there, and its length is bounded here)
        metadata.prompt = prompt.map { String($0.prefix(Prompts.maximumLength)) }
        // (it names an index key: only a kiosk id's form is believed)
        if let kiosk, !KioskID.isValid(kiosk) { metadata.kiosk = nil }
        // (hex of their lengths only: anything else is no CRC and no claim)
        if let crc32, crc32.utf8.count != 8 || !Self.isHex(crc32) { metadata.crc32 = nil }
        if let claim = deleteClaim, claim.utf8.count != 64 || !Self.isHex(claim) { metadata.deleteClaim = nil }
        if metadata.effect?.original?.key != nil { metadata.effect?.original?.key = Self.originalKey(id: id) }
        return metadata
    }

    private static func isHex(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Gives the post another id (after a name collision in the store) and the matching keys and URL.
    mutating func rename(to newID: String, url: String) {
        id = newID
        video = "\(newID).mp4"
        key = Self.videoKey(id: newID)
        metadataKey = Self.metadataKey(id: newID)
        self.url = url
        if effect?.original?.key != nil { effect?.original?.key = Self.originalKey(id: newID) }
        // The poster is stored under the new name when the post goes up.
        (thumbnailKey, thumbnailURL) = (nil, nil)
    }

    package static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    package func jsonData() throws(RecorderError) -> Data {
        do { return try Self.encoder.encode(self) } catch {
            throw RecorderError(InternalFailure.cannotEncode(document: .postMetadata, failure: EncodingFailure(error)))
        }
    }

    package static func decode(_ data: Data) throws(RecorderError) -> PostMetadata {
        do { return try JSONDecoder().decode(PostMetadata.self, from: data) } catch {
            throw .post(.metadataNotJSON(detail: "\(error)"))
        }
    }

}

/// Random post ids: 10 characters from [A-Za-z0-9], from the system CSPRNG (getrandom(2)).
package enum PostID {
    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    package static let length = 10

    package static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        // `randomElement(using:)` draws without modulo bias.
        return String((0..<length).map { _ in alphabet.randomElement(using: &generator)! })
    }

    package static func isValid(_ id: String) -> Bool {
        id.count == length && id.unicodeScalars.allSatisfy { $0.isASCII && alphabet.contains(Character($0)) }
    }
}

/// Share tokens: 22 characters from [A-Za-z0-9] (131 bits) from the system CSPRNG, the capability a
/// local share page link carries instead of the post id.
package enum ShareToken {
    package static let length = 22

    package static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in PostID.alphabet.randomElement(using: &generator)! })
    }

    package static func isValid(_ token: String) -> Bool {
        token.utf8.count == length && token.unicodeScalars.allSatisfy { $0.isASCII && PostID.alphabet.contains(Character($0)) }
    }

    /// Compares two tokens in time that does not depend on where they differ.
    package static func equal(_ a: String, _ b: String) -> Bool { ConstantTime.equal(a, b) }
}

/// Checks and normalises a caption: UTF-8 text of any script, emoji included, line breaks kept
/// (CR LF and CR become LF), at most `maximumLength` characters; NUL and other control characters
/// are refused. A caption only ever goes into the JSON metadata, never into an HTTP header.
package enum Caption {
    /// Characters (grapheme clusters, so a flag or a family emoji counts as one), as on the larger
    /// social platforms.
    package static let maximumLength = 2200

    package static func validate(_ text: String) throws(RecorderError) -> String {
        let normalized = text.replacing("\r\n", with: "\n").replacing("\r", with: "\n")
        if let bad = normalized.unicodeScalars.first(where: { isForbidden($0) }) {
            throw RecorderError(TextProblem(.caption(source: nil), .controlCharacter(bad.value, line: nil)))
        }
        if normalized.contains("\u{FFFD}") {
            throw RecorderError(TextProblem(.caption(source: nil), .notUTF8))
        }
        guard normalized.count <= maximumLength else {
            throw RecorderError(TextProblem(.caption(source: nil), .tooLong(count: normalized.count, limit: maximumLength, line: nil)))
        }
        return normalized
    }

    private static func isForbidden(_ s: Unicode.Scalar) -> Bool {
        if s == "\n" || s == "\t" { return false }
        return s.value < 0x20 || (0x7f...0x9f).contains(s.value)
    }
}
