package import FoundationEssentials
import Glibc
package import Settings
package import MailValues
package import SystemSupport

/// The operator's words for guests' mail (the journal, the operator page, and the CLI, which has
/// no flag for any of it): what is wrong with a `mail.*` setting and the key to change, why a mail
/// was not sent, why an address was refused. Never an address: the operator sees a masked one.
/// (The guest's words are `GuestStrings`'.)
package enum MailWording {
    /// A `mail.*` setting that stops the kiosk at its start (exit 78), with where its value came from.
    package static func settings(_ problem: MailSettingsProblem, _ configuration: RecorderConfiguration) -> String {
        settings(problem, origin: configuration.origin)
    }

    /// As above, with where each key's value came from given by `origin`.
    package static func settings(_ problem: MailSettingsProblem, origin: (String) -> String) -> String {
        func at(_ key: String) -> String { "\(key) (from \(origin(key)))" }
        switch problem {
        case .smtp(let smtp):
            return smtpSettings(smtp, url: at("mail.smtp_url"), credentials: at("mail.credentials_file"), ca: at("mail.ca_file"))
        case .fromMissing:
            return "mail.smtp_url is set (from \(origin("mail.smtp_url"))) but mail.from is not: set mail.from to the address the guests' mail comes from (one the server lets this account send from), e.g. mail.from = \"Photo booth <booth@example.com>\", or leave mail.smtp_url empty for no mail."
        case .from(let address):
            return "\(at("mail.from")) is not an address mail can come from: \(self.address(address)). Write it as booth@example.com or \"Photo booth <booth@example.com>\"."
        case .fromNameControlCharacter(let scalar):
            return "\(at("mail.from")) has the control character \(String(cFormat: "U+%04X", scalar)) in its name. Write the name on one line: \"Photo booth <booth@example.com>\"."
        case .insecureNotABoolean:
            return "\(at("mail.insecure")) must be true or false."
        case .subject(let template):
            return "\(at("mail.subject")): \(self.template(template)). Fields: {event}, {caption}, {link}, {expires}."
        case .subjectLines:
            return "\(at("mail.subject")) has a line break: a subject is one line. Write it on one."
        case .templateNotAFullPath(let path):
            return "mail.template = \(path) (from \(origin("mail.template"))) must be the full path of a text file with the mail's words and {link}, e.g. /etc/recorder/mail.txt, or empty for recorder's own words."
        case .templateUnreadable(let path, let errno):
            return "\(at("mail.template")): cannot read \(path): \(Descriptors.Errno(errno).description). Create it (UTF-8 text with {link} where the link goes), make it readable by the kiosk's user, or leave mail.template empty."
        case .templateTooLarge(let path):
            return "\(at("mail.template")): \(path) is over \(MailTemplateProblem.maximumLength) characters: a mail's words are a few lines. Is it the right file?"
        case .templateNotText(let path):
            return "\(at("mail.template")): \(path) is not UTF-8 text. Save it as UTF-8."
        case .template(let path, let template):
            return "\(at("mail.template")): \(path): \(self.template(template))."
        }
    }

    static func smtpSettings(_ problem: SMTPSettingsProblem, url: String, credentials: String, ca: String) -> String {
        switch problem {
        case .url(let value, let why):
            let detail = switch why {
            case .notAURL: "is not an address"
            case .scheme: "must start with smtps:// (TLS from the first byte) or smtp:// (STARTTLS)"
            case .credentials: "has a user or password in it: put them in mail.credentials_file (user = ..., password = ...) instead"
            case .noHost: "names no server"
            case .path: "has a path, query or fragment: give only smtps://HOST[:PORT] or smtp://HOST[:PORT]"
            case .port: "has a port outside 1-65535"
            case .characters: "has spaces, control characters or characters beyond ASCII"
            }
            return "\(url) = \(value) \(detail), e.g. smtps://smtp.example.com or smtp://smtp.example.com:587."
        case .credentialsUnreadable(let path, let errno):
            return "\(credentials): cannot read \(path): \(Descriptors.Errno(errno).description). Create it with user = ... and password = ... lines (chmod 600), or under systemd hand it over as LoadCredential=mail-credentials:FILE."
        case .credentialsOpenToOthers(let path, let mode):
            return "\(credentials): \(path) is readable by other users (mode \(String(mode, radix: 8))): a password others can read is no secret. Run: chmod 600 \(path)"
        case .credentialsIncomplete(let path, let missing):
            return "\(credentials): \(path) has no \(missing) = ... line. It needs both user = ... and password = ...; an empty file means no AUTH."
        case .credentialsNotText(let path):
            return "\(credentials): \(path) is not UTF-8 text, or a value in it has a control character. Write user = ... and password = ... on lines of their own."
        case .caFileUnreadable(let path, let errno):
            return "\(ca): cannot read \(path): \(Descriptors.Errno(errno).description). Point it at a PEM file the kiosk's user may read, or leave it empty to trust the system's certificates."
        }
    }

    static func template(_ problem: MailTemplateProblem) -> String {
        switch problem {
        case .unknownField(let name): "{\(name)} is no field (a typo would go out to every guest)"
        case .missingField(let field): "{\(field.rawValue)} is missing, and the mail has no point without it"
        case .controlCharacter(let scalar): "it has the control character \(String(cFormat: "U+%04X", scalar)); only line breaks and tabs may be in it"
        case .tooLong(let count): "it is \(count) characters long, more than \(MailTemplateProblem.maximumLength)"
        }
    }

    /// Why an address was refused (never the address itself: it is the guest's).
    package static func address(_ problem: MailAddress.Problem) -> String {
        switch problem {
        case .empty: "it is empty"
        case .atSigns(let count): count == 0 ? "it has no @" : "it has \(count) @ signs; an address has one"
        case .emptyLocalPart: "nothing comes before the @"
        case .emptyDomain: "nothing comes after the @"
        case .localPartTooLong(let octets): "the part before the @ is \(octets) characters long, more than \(MailAddress.maximumLocalPart)"
        case .domainTooLong(let octets): "the part after the @ is \(octets) characters long, more than \(MailAddress.maximumDomain)"
        case .tooLong(let octets): "it is \(octets) characters long, more than \(MailAddress.maximumLength)"
        case .controlCharacter(let scalar): "it has the control character \(String(cFormat: "U+%04X", scalar))"
        case .space: "it has a space in it"
        case .nonASCII: "it has a character beyond ASCII, which not every mail server along the way takes"
        case .characterNotAllowed(let character): "it has '\(character)' before the @, which an address this booth sends to may not have"
        case .misplacedDot: "a dot starts or ends the part before the @, or two come in a row"
        case .badDomain: "the part after the @ is not a domain (letters, digits and hyphens, with at least one dot)"
        }
    }

    /// Why a guest's mail was not sent, for the journal, the operator page and `recorder outbox`.
    package static func failure(_ failure: MailFailure) -> String {
        switch failure {
        case .smtp(let smtp): return self.smtp(smtp)
        case .noLink:
            return "its post went to a store that gives no share link (a local store, with no share.base_url and no kiosk serving its page): there is no link to send. Set share.base_url, then send it again: recorder outbox mail --retry ID."
        case .file(let operation, let path, let errno):
            return "cannot \(operation) \(path): \(Descriptors.Errno(errno).description) (the outbox's disk); it is tried again."
        }
    }

    static func smtp(_ failure: SMTPFailure) -> String {
        switch failure {
        case .settings(let problem):
            return smtpSettings(problem, url: "mail.smtp_url", credentials: "mail.credentials_file", ca: "mail.ca_file")
        case .hostNotFound(let host):
            return "the mail server's name \(host) did not resolve (mail.smtp_url): no DNS here, or a typo. It is tried again."
        case .cannotConnect(let host, let port, let errno):
            return "no connection to the mail server \(host):\(port)\(errno == 0 ? "" : ": \(Descriptors.Errno(errno).description)") (down, or blocked: under systemd allow its address with IPAddressAllow=). It is tried again."
        case .startTLSNotOffered:
            return "the mail server offers no STARTTLS, and mail.insecure is off: nothing was sent. Use its smtps:// address, or set mail.insecure = true for a server on this machine or the booth's own network."
        case .tlsFailed(let code, let detail):
            return "TLS with the mail server failed (libcurl \(code): \(detail)): its certificate is not trusted or the handshake broke. Set mail.ca_file to its CA, or fix the server's certificate."
        case .noUsableAuthentication:
            return "the mail server offers no AUTH method this recorder can use with mail.credentials_file."
        case .temporaryRefusal(let reply):
            return "the mail server answered \(reply) to \(step(reply.step)): not now. It is tried again."
        case .permanentRefusal(let reply):
            return "the mail server refused it: \(reply) (to \(step(reply.step))). It is kept, not sent again by itself: fix what the server says (an address it does not know, the account's rights), then recorder outbox mail --retry ID."
        case .connectionLost(let during, let code):
            let may = during == .endOfMessage ? " The server may have it all the same; it goes again with the same Message-ID." : ""
            return "the connection to the mail server broke during \(step(during)) (libcurl \(code)).\(may) It is tried again."
        case .cancelled(let during):
            return "stopped during \(step(during)) (the kiosk was stopping); it is tried again at the next start."
        case .unreadableMessage(let errno):
            return "the message could not be read: \(Descriptors.Errno(errno).description)."
        case .libcurl(let code, let detail):
            return "libcurl failed (\(code): \(detail)). It is tried again."
        }
    }

    /// A conversation's step, in words.
    static func step(_ step: SMTPStep) -> String {
        switch step {
        case .greeting: "the greeting"
        case .hello: "EHLO"
        case .startTLS: "STARTTLS"
        case .authentication: "AUTH (mail.credentials_file)"
        case .mailFrom: "MAIL FROM (mail.from)"
        case .recipient: "RCPT TO (the guest's address)"
        case .data: "DATA"
        case .message: "the message"
        case .endOfMessage: "the end of the message"
        }
    }

    /// A queue's files that cannot be used (the outbox's disk).
    package static func file(_ failure: FileSystem.Failure) -> String {
        "cannot \(failure.operation) \(failure.path): \(failure.errno.description). Free space, or fix the outbox's permissions."
    }

    static let months = [
        "en": ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"],
        "de": ["Januar", "Februar", "März", "April", "Mai", "Juni", "Juli", "August", "September", "Oktober", "November", "Dezember"],
    ]

    /// When a link stops working, for {expires} in a guest's mail: in `language` (the kiosk's),
    /// in this machine's time zone (or `utcOffsetSeconds` from UTC), in the one form the pages
    /// show it too (dates.js; both checked against Tests/pages/date-forms.json): "24 December
    /// 2026, 18:30", "24. Dezember 2026, 18:30".
    package static func expires(_ date: Date, language: String, utcOffsetSeconds: Int? = nil) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down)) + time_t(utcOffsetSeconds ?? 0)
        var parts = tm()
        let broken = utcOffsetSeconds == nil ? localtime_r(&seconds, &parts) : gmtime_r(&seconds, &parts)
        guard broken != nil else { return RFC3339.string(date) }
        let names = months[language] ?? months["en"]!
        let day = Int(parts.tm_mday), month = names[Int(parts.tm_mon)], year = Int(parts.tm_year) + 1900
        let time = String(cFormat: "%02d:%02d", parts.tm_hour, parts.tm_min)
        return language == "de" ? "\(day). \(month) \(year), \(time)" : "\(day) \(month) \(year), \(time)"
    }
}

extension MailWording {
    /// Why a guest's mail could not be queued.
    package static func request(_ problem: MailRequestProblem) -> String {
        switch problem {
        case .address(let why): "the address is not one mail can be sent to: \(address(why))."
        case .file(let failure): "the mail could not be queued: " + file(failure)
        }
    }
}
