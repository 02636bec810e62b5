#if canImport(Glibc)
import Glibc
#endif
import SystemSupport
package import MailValues

/// A message to send: its bytes (CRLF lines, as `MailMessage` makes them), in memory or in a file.
package enum MailBody: Sendable {
    case bytes([UInt8])
    case file(path: String)
}

/// Sends mail over SMTP with libcurl: `smtps://`, or `smtp://` with STARTTLS required unless
/// `insecure`, AUTH with the credentials file's user and password, one message to one recipient
/// per call and per connection.
///
/// A message is sent when the server has answered 2xx to it: `send` returns that reply. Anything
/// short of it throws an `SMTPFailure` (see it for which may be tried again, and the one case where
/// the server may have the message although it never said so).
package struct SMTPSender: Sendable {
    package let settings: SMTPSettings
    package let server: SMTPSettings.Server
    private let credentials: SMTPCredentials?

    /// Checks the settings: the URL, the credentials file (read now), the CA file.
    package init(_ settings: SMTPSettings) throws(SMTPSettingsProblem) {
        self.settings = settings
        server = try settings.server()
        credentials = try settings.credentialsFile.map { path throws(SMTPSettingsProblem) in try SMTPCredentials.read(file: path) }
        if let caFile = settings.caFile {
            do throws(Descriptors.Errno) { try Posix.access(caFile, R_OK) } catch {
                throw .caFileUnreadable(path: caFile, errno: error.code)
            }
        }
    }

    /// Sends `body` from `sender` to `recipient` and returns the server's 2xx to the message.
    /// Blocking, for a thread of its own: at most the connect timeout plus a stall timeout per
    /// step. `shouldStop` is asked about once a second while the message goes out and its reply is
    /// awaited; true ends the attempt (`SMTPFailure.cancelled`). `onAccepted` is called on this
    /// thread the moment the server's 2xx to the message is read, before the conversation's QUIT
    /// (whose reply may be slow, or never come): the place to record durably that the message was
    /// taken, so a process killed after the server took it does not send it again. Once it was
    /// called, `send` returns that reply whatever becomes of the QUIT.
    package func send(_ body: MailBody, from sender: MailAddress, to recipient: MailAddress,
                      shouldStop: (@Sendable () -> Bool)? = nil,
                      onAccepted: ((SMTPReply) -> Void)? = nil) throws(SMTPFailure) -> SMTPReply {
        let handle: CurlHandle
        do { handle = try CurlHandle() } catch { throw .libcurl(code: 2, detail: "curl_easy_init") }  // 2: CURLE_FAILED_INIT
        switch body {
        case .bytes(let bytes):
            return try handle.sendMail(to: server, settings: settings, credentials: credentials, from: sender, to: recipient,
                                       body: .bytes(bytes), shouldStop: shouldStop, onAccepted: onAccepted)
        case .file(let path):
            let fd: Int32, length: Int64
            do throws(Descriptors.Errno) {
                fd = try Posix.open(path, O_RDONLY | O_CLOEXEC)
                do throws(Descriptors.Errno) { length = try Posix.status(of: fd).size } catch { Posix.closeAfterUse(fd); throw error }
            } catch {
                throw .unreadableMessage(errno: error.code)
            }
            defer { Posix.closeAfterUse(fd) }
            return try handle.sendMail(to: server, settings: settings, credentials: credentials, from: sender, to: recipient,
                                       body: .file(descriptor: fd, offset: 0, length: length), shouldStop: shouldStop,
                                       onAccepted: onAccepted)
        }
    }
}
