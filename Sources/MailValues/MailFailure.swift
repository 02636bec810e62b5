/// Why a mail was not sent, as data; the edge that shows it words it.
package enum MailFailure: Error, Sendable, Equatable, Codable {
    /// The server's answer, or the connection's failure (see `SMTPFailure`).
    case smtp(SMTPFailure)
    /// The post went to the store without a share link (a local store with no share.base_url
    /// and no kiosk serving its page): there is nothing to send.
    case noLink
    /// The job's file could not be written or read (the operation, its path and errno).
    case file(operation: String, path: String, errno: Int32)

    /// Whether trying again later may get it through; false: keep it and show why.
    package var mayRetry: Bool {
        switch self {
        case .smtp(let failure): failure.mayRetry
        case .noLink: false
        case .file: true
        }
    }
}
