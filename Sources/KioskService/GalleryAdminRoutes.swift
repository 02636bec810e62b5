import FoundationEssentials
import HTTPTypes
import Logging
import Hummingbird
import NIOCore
import Settings
import Publishing
import Library
import ShareCode
import ShareServer
import SystemSupport
import KioskHTTP
import Failures

/// The operator's **Host's gallery**, under `/api/admin/galleries`: a gallery of the posts of the
/// last hours from every booth of the store (`recorder gallery create`'s, from the page), its link
/// on the share links' public name with its QR code, and its printable card.
enum GalleryAdminRoutes {
    struct CreateFields: Decodable {
        var event: String?
        /// The window: the posts of the last this many hours (default 24).
        var hours: Double?
        /// The link opens this many days (absent: until retention ends it).
        var expiresDays: Int?
        /// The booth's latest highlight reel goes first.
        var reel: Bool?
    }

    struct Made: Encodable {
        var token: String
        var link: String
        var event: String
        var since: String
        var until: String
        var expiresAt: String?
        /// The link's QR code (SVG), for the page to show.
        var qrSVG: String
        var card: String
    }

    static func collection(library: KioskLibrary, reels: ReelMaker, language: String, logger: Logger, clock: any RecorderClock) -> GuardedRoutes {
        let routes = GuardedRoutes()
        let galleries = Galleries(feed: library.feed, retention: library.share.retention)

        routes.post("", .operator, "makes a host's gallery of the last hours' posts from every booth: {\"event\", \"hours\", \"expiresDays\", \"reel\"}") { request, _ in
            let fields = try await JSONBody.read(request, allowed: ["event", "hours", "expiresDays", "reel"]).decode(CreateFields.self)
            let hours = fields.hours ?? 24
            guard (1...720).contains(hours) else { throw APIError.badRequest("give the gallery's window as 1 to 720 hours (\"hours\": 24).") }
            guard let base = GalleryLink.url(token: "", share: library.share) else { throw APIError(RecorderError.gallery(.noShareBase)) }
            let now = clock.date
            let reel = fields.reel == true ? reels.file : nil
            let gallery = try await offPool { () throws(RecorderError) in
                try galleries.create(event: fields.event ?? "", since: now.addingTimeInterval(-hours * 3600), until: now, kiosks: [],
                                     expiresDays: fields.expiresDays, reel: reel, now: now)
            }
            let link = base + gallery.token
            logger.notice("host's gallery made by the operator: \"\(gallery.event)\", posts since \(gallery.since)")
            let svg = (try? QRCode(link, correction: .quartile).svg()) ?? ""
            return HTTPAnswer.encoded(Made(token: gallery.token, link: link, event: gallery.event, since: gallery.since, until: gallery.until,
                                           expiresAt: galleries.expiry(of: gallery).map(RFC3339.string), qrSVG: svg,
                                           card: "/api/admin/galleries/\(gallery.token)/card.pdf"), status: .created)
        }

        routes.get(":token/card.pdf", .operator, "a host's gallery's printable card (PDF)") { _, context in
            let token = context.parameters.get("token") ?? ""
            let now = clock.date
            guard let gallery = try await offPool({ () throws(RecorderError) in try galleries.open(token: token, now: now) }),
                  let link = GalleryLink.url(token: gallery.token, share: library.share) else {
                throw APIError(RecorderError.gallery(.noSuchGallery(token: token, store: library.feed.location)))
            }
            let card: [UInt8]
            do throws(QRCodeError) {
                card = try GalleryCard.pdf(event: gallery.event, link: link, expires: galleries.expiry(of: gallery), language: language)
            } catch {
                throw APIError(RecorderError.gallery(.linkTooLong(link)))
            }
            var headers = HTTPFields()
            headers[.contentType] = "application/pdf"
            headers[.cacheControl] = "no-store"
            headers[.contentDisposition] = ShareFileName.contentDisposition(ShareFileName.folderName(gallery.event) + " card.pdf", attachment: false)
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: card)))
        }
        return routes
    }

    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () throws(RecorderError) -> T) async throws(APIError) -> T {
        do throws(RecorderError) {
            return try await SharedPosts.storeWork.run(work)
        } catch {
            throw APIError(error)
        }
    }
}
