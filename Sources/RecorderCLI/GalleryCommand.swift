import ArgumentParser
import FoundationEssentials
import Settings
import Publishing
import Library
import ShareCode
import ShareServer
import SystemSupport
import Failures

/// `recorder gallery`: the hosts' galleries (create, list, revoke, card).
struct GalleryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Make, list and revoke hosts' galleries: a link of their own to every post of their event, with Download all.",
        discussion: """
        A gallery is a capability link (/g/TOKEN, never a guest's) on the share links' public name (the origin of \
        share.base_url), answered by `recorder serve` (and the booth itself) from the store: the event's posts newest first, \
        the highlight reel first when one was given, each clip to play or download, and every clip as one ZIP. Posts the \
        operator hid, guests deleted or retention expired are never in it. It stops opening with --expires or with retention, \
        whichever is first, or when revoked.
        """,
        subcommands: [Create.self, List.self, Revoke.self, Card.self])

    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "create", abstract: "Make a gallery of an event's posts; print its link and QR code, and write its printable card.")

        @Option(name: .long, help: ArgumentHelp("The event's name: the page's title and the ZIP's.", valueName: "name"))
        var event: String

        @Option(name: .long, help: ArgumentHelp("Posts made at or after this: a day (from midnight UTC) or a time (default: a day before --until).", valueName: "time"))
        var since: Moment?

        @Option(name: .long, help: ArgumentHelp("Posts made at or before this (default: now).", valueName: "time"))
        var until: Moment?

        @Option(name: .long, help: ArgumentHelp("Only this booth's posts (its kiosk.id); repeat for more (default: every booth).", valueName: "id"))
        var kiosk: [String] = []

        @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("The link opens this many days (default: until retention.days ends its posts).", valueName: "days"),
                transform: { text throws(ValueError) in try WholeNumber.parse(text, 1...Gallery.maximumExpiryDays, "--expires") })
        var expires: Int?

        @Option(name: .long, help: ArgumentHelp("A highlight reel (recorder reel's) to show first, stored with the gallery.", valueName: "reel.mp4"))
        var reel: String?

        @Option(name: .long, help: ArgumentHelp("Where to write the printable card (default: gallery-card-TOKEN.pdf; none with --no-card).", valueName: "card.pdf"))
        var card: String?

        @Flag(name: .customLong("no-card"), help: "Write no card.")
        var noCard = false

        @Option(name: .long, help: ArgumentHelp("The card's language, en or de (default: serve.language).", valueName: "language"))
        var language: String?

        @OptionGroup var store: StoreOptions
        @OptionGroup var format: OutputOptions

        func run() throws { try execute() }

        private func execute() throws(RecorderError) {
            let configuration = try store.configuration()
            let share = try ShareLinks(configuration)
            let galleries = Galleries(feed: PostFeed(store: try configuration.makeBackend()), retention: share.retention)
            // The link's base first: a gallery nobody can open is not made.
            guard GalleryLink.url(token: "x", share: share) != nil else { throw .gallery(.noShareBase) }
            let now = SystemClock().date
            let gallery = try galleries.create(event: event, since: since?.date, until: until?.date, kiosks: kiosk, expiresDays: expires,
                                               reel: reel, now: now)
            let link = GalleryLink.url(token: gallery.token, share: share)!
            let expiry = galleries.expiry(of: gallery)
            var written: String?
            if !noCard {
                let path = card ?? "gallery-card-\(gallery.token.prefix(8)).pdf"
                try GalleryCard.write(try GalleryCommand.card(link: link, event: gallery.event, expires: expiry,
                                                              language: language ?? configuration.text("serve.language") ?? "en"), to: path)
                written = path
            }
            if format.json {
                printJSON(Made(gallery: gallery, link: link, expiresAt: expiry.map(RFC3339.string), card: written))
                return
            }
            print("gallery of \"\(gallery.event)\": \(link)")
            print("  posts made \(gallery.since) to \(gallery.until), \(gallery.kiosks.map { "booths " + $0.joined(separator: ", ") } ?? "every booth")")
            print("  opens until \(expiry.map(RFC3339.string) ?? "it is revoked (no expiry, no retention)")")
            if let written { print("  card: \(written)") }
            if let code = try? QRCode(link, correction: .quartile) { print(code.text()) }
        }

        struct Made: Encodable {
            var gallery: Gallery
            var link: String
            var expiresAt: String?
            var card: String?
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "List the store's galleries, newest first, with their links.")

        @OptionGroup var store: StoreOptions
        @OptionGroup var format: OutputOptions

        func run() throws { try execute() }

        private func execute() throws(RecorderError) {
            let configuration = try store.configuration()
            let share = try ShareLinks(configuration)
            let galleries = Galleries(feed: PostFeed(store: try configuration.makeBackend()), retention: share.retention)
            let now = SystemClock().date
            let listed = try galleries.list().map { gallery in
                let expiry = galleries.expiry(of: gallery)
                return Listed(gallery: gallery, link: GalleryLink.url(token: gallery.token, share: share), expiresAt: expiry.map(RFC3339.string),
                              open: expiry.map { $0 > now } ?? true)
            }
            if format.json {
                printJSON(listed)
                return
            }
            if listed.isEmpty { print("no gallery in \(galleries.feed.location)") }
            for item in listed {
                print("\(item.gallery.event)  \(item.link ?? item.gallery.token)")
                print("  posts \(item.gallery.since) to \(item.gallery.until), \(item.gallery.kiosks?.joined(separator: ", ") ?? "every booth"); "
                      + (item.open ? "opens until \(item.expiresAt ?? "revoked")" : "expired \(item.expiresAt ?? "")"))
            }
        }

        struct Listed: Encodable {
            var gallery: Gallery
            var link: String?
            var expiresAt: String?
            var open: Bool
        }
    }

    struct Revoke: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revoke a gallery: its link opens nothing from now on, on every server.")

        @Argument(help: ArgumentHelp("The gallery's token or its link.", valueName: "token-or-link"))
        var gallery: String

        @OptionGroup var store: StoreOptions
        @OptionGroup var format: OutputOptions

        func run() throws { try execute() }

        private func execute() throws(RecorderError) {
            let configuration = try store.configuration()
            let galleries = Galleries(feed: PostFeed(store: try configuration.makeBackend()), retention: try Retention(configuration))
            let revoked = try galleries.revoke(gallery)
            if format.json { printJSON(revoked) } else { print("revoked the gallery of \"\(revoked.event)\": its link opens nothing now") }
        }
    }

    struct Card: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "card", abstract: "Write a gallery's printable card again (PDF).")

        @Argument(help: ArgumentHelp("The gallery's token or its link.", valueName: "token-or-link"))
        var gallery: String

        @Option(name: .shortAndLong, help: ArgumentHelp("The new file (default: gallery-card-TOKEN.pdf).", valueName: "card.pdf"))
        var output: String?

        @Option(name: .long, help: ArgumentHelp("The card's language, en or de (default: serve.language).", valueName: "language"))
        var language: String?

        @OptionGroup var store: StoreOptions

        func run() throws { try execute() }

        private func execute() throws(RecorderError) {
            let configuration = try store.configuration()
            let share = try ShareLinks(configuration)
            let galleries = Galleries(feed: PostFeed(store: try configuration.makeBackend()), retention: share.retention)
            let token = Galleries.token(in: gallery)
            guard let found = try galleries.open(token: token, now: SystemClock().date) else {
                throw .gallery(.noSuchGallery(token: token, store: galleries.feed.location))
            }
            guard let link = GalleryLink.url(token: found.token, share: share) else { throw .gallery(.noShareBase) }
            let path = output ?? "gallery-card-\(found.token.prefix(8)).pdf"
            try GalleryCard.write(try GalleryCommand.card(link: link, event: found.event, expires: galleries.expiry(of: found),
                                                          language: language ?? configuration.text("serve.language") ?? "en"), to: path)
            print("wrote \(path)")
        }
    }

    /// The card's bytes, or why there is none (a link no QR code holds).
    static func card(link: String, event: String, expires: Date?, language: String) throws(RecorderError) -> [UInt8] {
        do throws(QRCodeError) {
            return try GalleryCard.pdf(event: event, link: link, expires: expires, language: language)
        } catch {
            throw .gallery(.linkTooLong(link))
        }
    }
}
