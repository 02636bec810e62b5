import FoundationEssentials
package import Library
import Publishing
import KioskWords
import KioskHTTP
import SystemSupport

/// The host's gallery page (Pages/gallery.html, gallery.css, gallery.js): the event's name, until
/// when the link opens, **Download all**, the reel when one was made, and the first page of posts
/// with the page itself, so the first screen needs no second request; the rest as the host scrolls.
enum HostGalleryPage {
    static func html(_ gallery: Gallery, base: String, first: (posts: [GalleryPost], next: String?), expires: Date?, language: String) -> String {
        let lang = GuestStrings.languages.contains(language) ? language : "en"
        func t(_ key: GuestStrings.Key) -> String { GuestStrings.text(key, lang) }
        let until = expires.map { date in
            let iso = RFC3339.string(date)
            return HTMLText.escaped(t(.galleryUntil)).replacing("{n}", with: #"<time datetime="\#(iso)">\#(iso)</time>"#)
        } ?? ""
        let reel = gallery.reel == nil ? "" : PageText.fill(ShareFiles.text("gallery-reel.html"), [
            "reelTitle": HTMLText.escaped(t(.galleryReel)), "reel": HTMLText.escaped(base + "/reel.mp4"),
        ])
        let words: [String: String] = [
            "play": t(.galleryPlay), "downloadClip": t(.download), "empty": t(.galleryEmpty), "loading": t(.galleryLoading),
            "loadFailed": t(.galleryLoadFailed),
        ]
        return PageText.fill(ShareFiles.text("gallery.html"), [
            "lang": lang, "title": HTMLText.escaped(gallery.event), "until": until,
            "archive": HTMLText.escaped(base + "/archive.zip"), "archiveName": HTMLText.escaped(PostArchive.fileName(gallery)),
            "downloadAll": HTMLText.escaped(t(.downloadAll)), "base": HTMLText.escaped(base), "reel": reel,
            "first": HTMLText.escaped(json(Page(posts: first.posts, next: first.next))), "words": HTMLText.escaped(json(words)),
        ])
    }

    /// A page of posts as the page's script reads it.
    struct Page: Encodable {
        var posts: [GalleryPost]
        var next: String?
    }

    private static func json(_ value: some Encodable) -> String {
        (try? HTTPAnswer.jsonEncoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }
}
