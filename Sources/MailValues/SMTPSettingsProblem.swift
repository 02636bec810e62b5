/// Why mail settings cannot work. Cases with their data: the edge words them (the kiosk stops at
/// start with exit 78 and the fix).
package enum SMTPSettingsProblem: Error, Sendable, Equatable, Codable {
    package enum URLProblem: String, Sendable, Equatable, Codable {
        case notAURL
        /// Neither smtp:// nor smtps://.
        case scheme
        /// A user or password in the URL: they belong in the credentials file.
        case credentials
        case noHost
        /// A path, query or fragment: libcurl would take a path as the EHLO name.
        case path
        case port
        /// Spaces, control characters or non-ASCII.
        case characters
    }

    case url(String, URLProblem)
    case credentialsUnreadable(path: String, errno: Int32)
    /// Group or others may read it (its permission bits).
    case credentialsOpenToOthers(path: String, mode: UInt32)
    /// No `user = ...` or no `password = ...` line (the field's name).
    case credentialsIncomplete(path: String, missing: String)
    /// Not UTF-8 text, or a value with control characters.
    case credentialsNotText(path: String)
    case caFileUnreadable(path: String, errno: Int32)
}
