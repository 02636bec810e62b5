import SystemSupport
import FoundationEssentials
package import MailValues

/// Where and how mail is sent: `smtps://host[:port]` (TLS from the first byte) or
/// `smtp://host[:port]` (STARTTLS required unless `insecure`), the credentials file, and a CA file
/// for a server whose certificate the system's CAs do not vouch for.
package struct SMTPSettings: Sendable, Equatable {
    /// `smtps://host[:port]` or `smtp://host[:port]`, nothing more (no user, path or query).
    package var url: String
    /// With `smtp://`: send in the clear when the server offers no STARTTLS (when it does, TLS is
    /// still used and its certificate still checked). Off: STARTTLS or nothing.
    package var insecure: Bool
    /// `user = ...` and `password = ...` lines, readable by the owner only; nil sends without AUTH.
    package var credentialsFile: String?
    /// PEM certificates to trust instead of the system's.
    package var caFile: String?
    package var transfer: TransferSettings

    package init(url: String, insecure: Bool = false, credentialsFile: String? = nil, caFile: String? = nil,
                 transfer: TransferSettings = TransferSettings()) {
        self.url = url
        self.insecure = insecure
        self.credentialsFile = credentialsFile
        self.caFile = caFile
        self.transfer = transfer
    }

    /// The server to talk to, from a checked `url`.
    package struct Server: Sendable, Equatable {
        package var implicitTLS: Bool
        package var host: String
        package var port: Int
        /// What libcurl is given: scheme, host and port only.
        var url: String { "\(implicitTLS ? "smtps" : "smtp")://\(host.contains(":") ? "[\(host)]" : host):\(port)" }
    }

    /// The server `url` names, or why it names none.
    package func server() throws(SMTPSettingsProblem) -> Server {
        // (the problem is shown to people and kept in the journal: a password in the URL is hidden)
        let shown = url.withoutURLPassword
        guard url.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7f }) else { throw .url(shown, .characters) }
        guard let parts = URLComponents(string: url), let scheme = parts.scheme?.lowercased() else { throw .url(shown, .notAURL) }
        guard scheme == "smtp" || scheme == "smtps" else { throw .url(shown, .scheme) }
        guard parts.user == nil, parts.password == nil else { throw .url(shown, .credentials) }
        guard let host = parts.host, !host.isEmpty else { throw .url(shown, .noHost) }
        guard parts.path.isEmpty || parts.path == "/", parts.query == nil, parts.fragment == nil else { throw .url(shown, .path) }
        let port = parts.port ?? (scheme == "smtps" ? 465 : 25)
        guard (1...65535).contains(port) else { throw .url(shown, .port) }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return Server(implicitTLS: scheme == "smtps", host: bare, port: port)
    }
}
