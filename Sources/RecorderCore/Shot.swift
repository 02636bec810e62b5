import FoundationEssentials

/// A finished shot as recorded in the workspace's `shot.json`.
public struct Shot: Sendable, Codable, Hashable {
    public var id: String
    /// Absolute path of the finished MP4.
    public var videoPath: String
    public var createdAt: Date
    public var source: String
    public var inputFormat: String
    public var width: Int
    public var height: Int
    public var frameRate: Double
    public var frames: Int
    public var framesDropped: Int
    public var durationSeconds: Double
    public var byteSize: Int64
    public var codec: String
    public var encoder: String
    /// Why the shot is shorter than asked, if it is: "stopped", "camera lost: ...", "end of input".
    public var endedEarly: String?
    /// Notes on how the capture differs from the request.
    public var notes: [String]
    /// True for a shot rebuilt at start-up from a recording that was interrupted (see `ShotSalvage`).
    public var recovered: Bool?
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

    public func jsonData() throws -> Data { try Self.encoder.encode(self) }
}
