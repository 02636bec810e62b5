import FoundationEssentials
import Publishing
import Shooting
import KioskWords
import ShareServer

/// The page a guest at the booth uses, served at `/` (Pages/guest.html, guest.css, guest.js and
/// guest-logic.js): full screen at any size, in the language of `kiosk.language` (its words come
/// from `GuestStrings`, put into the page as a JSON data block when it is served).
///
/// The flow, as photobooth apps do it: attract (the live camera, mirrored, an invitation and the
/// record button), countdown, recording (a ring and the seconds left; a second press stops),
/// saving, review (the clip plays once with sound, then Post, Retake or Delete; with no touch for
/// `kiosk.review_seconds` it returns to attract and keeps or discards the clip as
/// `kiosk.review_unposted` says), then a thank-you and back to attract. A failure is one plain
/// sentence. Space, Enter and `kiosk.trigger_key` work like the button (a USB arcade button is a
/// keyboard). A clip is never shown to the next guest: the page reviews only shots made while it
/// was open, and never plays one on load.
enum GuestPage {
    /// The page with the strings of `language`, the consent text (`kiosk.consent`) or null, and
    /// guests' mail (`mail.*`: the thank-you offers "Send it to my email") or null.
    static func html(language: String, consent: ConsentText? = nil, mail: Bool = false) -> String {
        PageFiles.text("guest.html")
            .replacing("/*STRINGS*/", with: GuestStrings.json(language))
            .replacing("/*CONSENT*/", with: consent.map(consentJSON) ?? "null")
            .replacing("/*MAIL*/", with: mail ? mailJSON(language: language, consent: consent) : "null")
            .replacing("<html lang=\"en\">", with: "<html lang=\"\(GuestStrings.languages.contains(language) ? language : "en")\">")
    }

    /// The consent text as the page embeds it (a JSON data block; every less-than sign escaped).
    static func consentJSON(_ text: ConsentText) -> String {
        struct Block: Encodable { var text: String; var sha256: String }
        return safeJSON(Block(text: text.text, sha256: text.sha256))
    }

    /// What the mail screen needs: its opt-in words (the consent text's ✉ line, when `kiosk.consent`
    /// asks to keep addresses: the guest reads again what they agreed to; else the page's own), and
    /// its keyboard's domain keys for `language`. Safe inside a script element (every < escaped).
    static func mailJSON(language: String, consent: ConsentText?) -> String {
        struct Block: Encodable {
            var optIn: String
            var keeps: Bool
            var domains: [String]
        }
        let keepLine = consent.flatMap { MailConsent.keepLine(in: $0.text) }
        let domains = language == "de" ? ["gmail.com", "gmx.de", "web.de", "t-online.de", "outlook.com"]
                                       : ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "hotmail.com"]
        return safeJSON(Block(optIn: keepLine ?? GuestStrings.text(.mailOptIn, language), keeps: keepLine != nil, domains: domains))
    }

    /// `value` as JSON with sorted keys, safe inside a script element (every < escaped).
    private static func safeJSON(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(value)) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self).replacing("<", with: "\\u003c")
    }
}
