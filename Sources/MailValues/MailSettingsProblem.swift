/// Why the mail settings cannot work, as cases with their data: the edge that stops on it (the
/// kiosk at its start, `recorder post --email`) words it with the key to change.
package enum MailSettingsProblem: Error, Sendable, Equatable, Encodable {
    /// `mail.smtp_url`, `mail.credentials_file` or `mail.ca_file` (the transport's own case).
    case smtp(SMTPSettingsProblem)
    /// `mail.smtp_url` is set and `mail.from` is not.
    case fromMissing
    /// `mail.from`'s address.
    case from(MailAddress.Problem)
    /// `mail.from`'s name has a control character (the scalar's value).
    case fromNameControlCharacter(UInt32)
    case insecureNotABoolean
    /// `mail.subject`.
    case subject(MailTemplateProblem)
    /// `mail.subject` has a line break.
    case subjectLines
    case templateNotAFullPath(String)
    case templateUnreadable(path: String, errno: Int32)
    case templateTooLarge(path: String)
    case templateNotText(path: String)
    case template(path: String, MailTemplateProblem)
}
