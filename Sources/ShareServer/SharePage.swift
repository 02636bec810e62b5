package import FoundationEssentials
package import Publishing
package import KioskWords
import SystemSupport

/// The page a guest's phone opens from the QR code (`/s/<token>`): the one video, its caption and
/// a download button, in the page's language (Pages/share.html, plain.css, share.js), with no
/// script from elsewhere and nothing that leads to another post.
package enum SharePage {
    /// The page for `metadata`'s video at `videoPath` (its poster, the player's first picture, at
    /// `posterPath`: iOS shows a black box without one), the link working until `expires`; the
    /// download is named after the caption or the event (`ShareFileName`), never the id. On the
    /// phone that may delete the post (`canDelete`: it holds the post's claim) the guest deletes it
    /// by posting the form to `deletePath` (after opening it: a second step); any other phone is
    /// told whom to ask. Its title names the `event` (its name: `RecorderConfiguration.eventName`)
    /// when it has one.
    ///
    /// A video made into an effect offers its take too (`takePath`); a boomerang is saved as a loop
    /// (an MP4 that plays round and round in the page), and offers an animated GIF on request
    /// (`gifPath`: made when it is asked for; nil where no GIF is made).
    package static func html(_ metadata: PostMetadata, videoPath: String, posterPath: String? = nil, deletePath: String, expires: Date,
                             language: String, event: String = "", canDelete: Bool, takePath: String? = nil, gifPath: String? = nil) -> String {
        let lang = GuestStrings.languages.contains(language) ? language : "en"
        func t(_ key: GuestStrings.Key) -> String { escaped(GuestStrings.text(key, lang)) }
        let title = event.isEmpty ? t(.shareTitle) : escaped(GuestStrings.text(.shareTitleAtEvent, lang).replacing("{n}", with: event))
        let loop = metadata.isBoomerang
        var more = ""
        if loop, let gifPath {
            more += #"<a class="download other" href="\#(escaped(gifPath))" download="\#(escaped(ShareFileName.name(for: metadata, part: .gif)))">\#(t(.loopGIF))</a>"#
        }
        if let takePath {
            more += #"<a class="download other" href="\#(escaped(takePath))" download="\#(escaped(ShareFileName.name(for: metadata, part: .take)))">\#(t(.downloadOriginal))</a>"#
        }
        let iso = RFC3339.string(expires)
        let caption = metadata.caption.isEmpty ? "" : #"<p class="said" dir="auto">\#(escaped(metadata.caption))</p>"#
        // The question the guest answered (kiosk.prompts), escaped like the caption: the store's text.
        let prompt = metadata.prompt.map { #"<p class="prompt" dir="auto">\#(escaped($0))</p>"# } ?? ""
        let erase = canDelete
            ? PageText.fill(ShareFiles.text("share-erase.html"), [
                "deleteMine": t(.deleteMine), "deleteWarning": t(.deleteWarning), "deleteForGood": t(.deleteForGood),
                "deleteAction": escaped(deletePath),
            ])
            : #"<p class="erase-elsewhere">\#(t(.deleteElsewhere))</p>"#
        return PageText.fill(ShareFiles.text("share.html"), [
            "lang": lang, "title": title, "video": escaped(videoPath), "caption": caption, "prompt": prompt,
            "poster": posterPath.map { #" poster="\#(escaped($0))""# } ?? "",
            "file": escaped(ShareFileName.name(for: metadata, part: loop ? .loop : .video)), "download": t(loop ? .saveLoop : .download),
            "loop": loop ? " loop autoplay muted" : "", "more": more,
            "until": t(.linkUntil).replacing("{n}", with: #"<time datetime="\#(iso)">\#(iso)</time>"#),
            "erase": erase,
        ])
    }

    /// A one-sentence answer on the share page's plain layout: after a delete, or when it failed.
    package static func message(_ key: GuestStrings.Key, language: String) -> String {
        let lang = GuestStrings.languages.contains(language) ? language : "en"
        return PageText.fill(ShareFiles.text("share-gone.html"), [
            "lang": lang, "title": escaped(GuestStrings.text(.shareTitle, lang)), "gone": escaped(GuestStrings.text(key, lang)), "more": "",
        ])
    }

    /// What a link that opens nothing is answered with, whatever the reason (a wrong token, an
    /// expired link, a hidden or removed post alike), so the answer tells nothing more.
    package enum Unopened: Sendable {
        /// The booth: it has every post it made (queued or sent), so a link that opens nothing is gone.
        case gone
        /// A share server: the post may not be in the store yet (a booth with no internet sends it
        /// later), so the page says so and when to try again.
        case notYet
    }

    /// How long a phone is asked to wait before trying a link that did not open on a share server.
    package static let retrySeconds = 900

    /// The page for a link that opens nothing.
    package static func unopened(_ kind: Unopened, language: String) -> String {
        let lang = GuestStrings.languages.contains(language) ? language : "en"
        let (key, more): (GuestStrings.Key, String) = switch kind {
        case .gone: (.shareGone, "")
        case .notYet: (.shareNotYet, #"<p>\#(escaped(GuestStrings.text(.shareNotYetDetail, lang, count: retrySeconds / 60)))</p>"#)
        }
        return PageText.fill(ShareFiles.text("share-gone.html"), [
            "lang": lang, "title": escaped(GuestStrings.text(.shareTitle, lang)), "gone": escaped(GuestStrings.text(key, lang)), "more": more,
        ])
    }

    /// Text made safe inside HTML elements and quoted attributes.
    static func escaped(_ text: String) -> String { HTMLText.escaped(text) }
}
