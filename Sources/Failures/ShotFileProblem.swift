/// Why a shot's `shot.json` cannot be read.
package enum ShotFileProblem: Sendable, Equatable, Encodable {
    /// The file at `path` is missing or cannot be read.
    case unreadable(path: String)
    /// The file at `path` is not a shot record: `parser` is the JSON decoder's own account.
    case damaged(path: String, parser: String)
}
