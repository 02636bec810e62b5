package import FoundationEssentials
package import Settings
package import SystemSupport
package import ShotValues

/// A finished shot as recorded in the workspace's `shot.json`.
package struct Shot: Sendable, Codable, Equatable {
    package var id: String
    /// Absolute path of the finished MP4.
    package var videoPath: String
    package var createdAt: Date
    package var source: String
    package var inputFormat: String
    package var width: Int
    package var height: Int
    package var frameRate: Double
    package var frames: Int
    package var framesDropped: Int
    package var durationSeconds: Double
    package var byteSize: Int64
    package var codec: String
    package var encoder: String
    /// Why the shot is shorter than asked, if it is.
    package var endedEarly: ShotEnding?
    /// What the shot tells beside its record (how the capture differs from the request, a
    /// recovery...), as cases with their data; an older shot's sentences as they were written.
    @ShotNotes package var notes: [ShotNote]
    /// True for a shot rebuilt at start-up from a recording that was interrupted (see `ShotSalvage`).
    package var recovered: Bool?
    /// The sound track; nil, written as null, for a silent shot (a reader of the JSON sees that
    /// sound was considered, and absent).
    @NullWhenAbsent package var audio: ShotAudio?
    /// The guest's yes it was recorded under (`kiosk.consent`); absent when none was asked. The text
    /// is `consent.txt` beside shot.json.
    package var consent: Consent? = nil
    /// The question the guest answered (`kiosk.prompts`); absent when none was shown.
    package var prompt: String? = nil
    /// The effect the shot was made into (`shoot.effect`), its take kept beside it; absent for none.
    package var effect: ShotEffect? = nil

    /// The take an effect was made from, in the shot's folder; nil when the shot is its take.
    package var originalPath: String? {
        effect?.original.map { FilePaths.join(FilePaths.directory(of: videoPath), $0.file) }
    }
}

extension Shot {
    static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        e.dateEncodingStrategy = .custom(RFC3339.encode)
        return e
    }()

    static let decoder: JSONDecoder = {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .custom(RFC3339.decode)
        return d
    }()

    package func jsonData() throws -> Data { try Self.encoder.encode(self) }
}
