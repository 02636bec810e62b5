package import Settings
import Failures

extension Setting {
    /// Mail to guests (`mail.*`): the server, the sender, the words. Off while `mail.smtp_url` is empty.
    package static let mail: [Setting] = [
        Setting("mail.smtp_url", default: "",
                "the SMTP server guests' mail goes through: smtps://HOST[:PORT] (TLS from the first byte, port 465 by default) or smtp://HOST[:PORT] (STARTTLS required unless mail.insecure; port 25 by default, 587 for most providers); no user or password in it (mail.credentials_file); empty: no mail, and neither the guest page nor the command line offers it"),
        Setting("mail.insecure", .boolean, default: "false",
                "with smtp://, send in the clear when the server offers no STARTTLS (a server on this machine or the booth's own network); when it offers STARTTLS, TLS is used and its certificate checked all the same"),
        Setting("mail.from",
                "the guests' mail's sender, an address the server lets this account send from, with a name if wanted: booth@example.com or \"Photo booth <booth@example.com>\"; required with mail.smtp_url"),
        Setting("mail.credentials_file", credential: "mail-credentials",
                "file with user = ... and password = ... lines for SMTP AUTH, readable by its owner only (mode 0600), or by root and its group (0640), used over TLS only; empty or not set: no AUTH"),
        Setting("mail.ca_file",
                "PEM certificates to trust for the SMTP server instead of the system's (a server with a certificate of its own making); empty: the system's"),
        Setting("mail.subject", default: "Your video from {event}",
                "the guests' mail's subject, with {event}, {caption}, {link} or {expires} filled in (a line whose field is empty is left out; with no words left it is \"Your video\"); at most 150 characters are sent"),
        Setting("mail.template", default: "",
                "the full path of a UTF-8 text file with the guests' mail's words, {link} (required) where the share link goes, and {caption}, {event}, {expires} where wanted (a line whose field is empty is left out); sent as text and as HTML with the post's poster above it; empty: recorder's own words (in English)"),
        Setting("mail.event", default: "",
                "the event's name, for {event} in mail.subject and mail.template, e.g. Anna & Ben's wedding"),
    ]
}
