import FoundationEssentials
import Shooting

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
    /// The page with the strings of `language`, and the consent text (`kiosk.consent`) or null.
    static func html(language: String, consent: ConsentText? = nil) -> String {
        PageFiles.text("guest.html")
            .replacing("/*STRINGS*/", with: GuestStrings.json(language))
            .replacing("/*CONSENT*/", with: consent.map(consentJSON) ?? "null")
            .replacing("<html lang=\"en\">", with: "<html lang=\"\(GuestStrings.languages.contains(language) ? language : "en")\">")
    }

    /// The consent text as the page embeds it (a JSON data block; every less-than sign escaped).
    static func consentJSON(_ text: ConsentText) -> String {
        struct Block: Encodable { var text: String; var sha256: String }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(Block(text: text.text, sha256: text.sha256))) ?? Data("null".utf8)
        return String(decoding: data, as: UTF8.self).replacing("<", with: "\\u003c")
    }
}
