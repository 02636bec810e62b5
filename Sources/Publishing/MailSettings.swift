import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
package import Settings
package import StorageUpload
package import MailValues
internal import SystemSupport

/// How guests' mail goes out (`mail.*`), checked in full: the server and its credentials, the
/// sender, the subject and the words. Made once, when the kiosk starts or `recorder post --email`
/// runs, so a bad value stops it there, not at the first guest's mail.
package struct MailSettings: Sendable {
    /// The server, its TLS and credentials (read when this was made).
    package let sender: SMTPSender
    package let from: MailAddress
    /// The sender's name in the From field, or empty.
    package let fromName: String
    package let subject: MailTemplate
    package let body: MailTemplate
    /// `mail.event`, for {event}.
    package let event: String

    package init(sender: SMTPSender, from: MailAddress, fromName: String = "", subject: MailTemplate = .standardSubject,
                 body: MailTemplate = .standardBody, event: String = "") {
        self.sender = sender
        self.from = from
        self.fromName = fromName
        self.subject = subject
        self.body = body
        self.event = event
    }

    /// The largest `mail.template` file read (its text is at most `MailTemplate.maximumLength` characters).
    static let templateFileLimit = 256 * 1024

    /// The mail settings of `configuration` (its catalogue must have `Setting.mail`): nil while
    /// `mail.smtp_url` is empty (mail is off), else every value checked, or the first problem.
    package static func configured(_ configuration: RecorderConfiguration) throws(MailSettingsProblem) -> MailSettings? {
        let url = (configuration.text("mail.smtp_url") ?? "").trimmed()
        guard !url.isEmpty else { return nil }
        let fromText = (configuration.text("mail.from") ?? "").trimmed()
        guard !fromText.isEmpty else { throw .fromMissing }
        let (fromName, from) = try parseFrom(fromText)
        let insecure: Bool
        do { insecure = try configuration.boolean("mail.insecure") } catch { throw .insecureNotABoolean }
        var credentials = configuration.secretFile("mail.credentials_file")
        // An empty file is no credentials, as the package installs it for the unit's LoadCredential=.
        if let file = credentials, FileSystem.size(of: file) == 0 { credentials = nil }
        let caFile = configuration.text("mail.ca_file").flatMap { $0.isEmpty ? nil : $0 }
        let transfer = TransferSettings(connectTimeoutSeconds: Int((try? configuration.number("network.connect_timeout_seconds")) ?? 10),
                                        stallTimeoutSeconds: Int((try? configuration.number("network.stall_timeout_seconds")) ?? 30))
        let sender: SMTPSender
        do throws(SMTPSettingsProblem) {
            sender = try SMTPSender(SMTPSettings(url: url, insecure: insecure, credentialsFile: credentials, caFile: caFile, transfer: transfer))
        } catch {
            throw .smtp(error)
        }
        let subject: MailTemplate
        do throws(MailTemplate.Problem) {
            subject = try MailTemplate(configuration.text("mail.subject") ?? "")
        } catch {
            throw .subject(error)
        }
        if (configuration.text("mail.subject") ?? "").contains(where: \.isNewline) { throw .subjectLines }
        let body = try template(configuration.text("mail.template") ?? "")
        return MailSettings(sender: sender, from: from, fromName: fromName, subject: subject, body: body,
                            event: configuration.eventName)
    }

    /// `mail.from`: `address` or `Name <address>`.
    static func parseFrom(_ text: String) throws(MailSettingsProblem) -> (name: String, address: MailAddress) {
        var name = "", address = text
        if text.hasSuffix(">"), let open = text.lastIndex(of: "<") {
            name = text[..<open].trimmed()
            if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
            address = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        }
        if let bad = name.unicodeScalars.first(where: { $0.value < 0x20 || (0x7f...0x9f).contains($0.value) }) {
            throw .fromNameControlCharacter(bad.value)
        }
        do throws(MailAddress.Problem) {
            return (name, try MailAddress(address))
        } catch {
            throw .from(error)
        }
    }

    /// `mail.template`: empty for the standard words, else a full path to a text file with `{link}`.
    static func template(_ path: String) throws(MailSettingsProblem) -> MailTemplate {
        guard !path.isEmpty else { return .standardBody }
        guard path.hasPrefix("/") else { throw .templateNotAFullPath(path) }
        let bytes: [UInt8]
        do throws(Descriptors.Errno) {
            let fd = try Posix.open(path, O_RDONLY | O_CLOEXEC)
            defer { Posix.closeAfterUse(fd) }
            bytes = try Posix.readAll(fd, limit: templateFileLimit)
        } catch {
            throw error.code == EFBIG ? .templateTooLarge(path: path) : .templateUnreadable(path: path, errno: error.code)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .templateNotText(path: path) }
        do throws(MailTemplate.Problem) {
            return try MailTemplate(text, requiring: [.link])
        } catch {
            throw .template(path: path, error)
        }
    }
}
