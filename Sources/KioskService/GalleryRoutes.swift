import FoundationEssentials
import HTTPTypes
import Hummingbird
import NIOCore
import Publishing
import SystemSupport
import ShareCode
import Settings
import KioskWords
import KioskHTTP
import ShareServer
import Failures

/// The gallery, under `/api`: pages of posts and their videos through the cache.
enum GalleryRoutes {
    static func collection(library: KioskLibrary, guests: GuestCoordinator, videos: ClientSlots, wifi: WifiNetwork?) -> GuardedRoutes {
        let routes = GuardedRoutes()

        routes.get("feed", .operator, "a page of the feed: ?page=N (12 posts, newest first, with their share links)") { request, _ in
            let text = request.uri.queryParameters.get("page") ?? "1"
            guard let number = Int(text), (1...100_000).contains(number) else {
                throw APIError.badRequest("page must be a number from 1 (the newest posts); got '\(text)'.")
            }
            let page = try await library.page(number)
            return HTTPAnswer.encoded(KioskAPI.GalleryPage(posts: page.entries, page: number, hasMore: page.next != nil))
        }

        // The attract loop plays the recent posts on the booth's screen: their ids, nothing more.
        routes.get("attract", .booth, "the ids of the newest visible posts, for the booth's attract loop") { _, _ in
            let page = try await library.page(1)
            return HTTPAnswer.encoded(AttractPosts(posts: page.entries.filter { $0.problem == nil }.map { AttractPosts.Post(id: $0.id) }))
        }

        routes.get("videos/:file", .booth, "a posted video, not hidden (ranges)") { request, context in
            let file = context.parameters.get("file") ?? ""
            guard file.hasSuffix(".mp4"), PostID.isValid(String(file.dropLast(4))) else {
                throw APIError(.recorder(.notFound), "no such video: ask for /api/videos/<post id>.mp4 with an id from /api/feed.")
            }
            guard let slot = videos.take(for: context) else { throw videos.busy(for: context) }
            let playback = try await library.playback(id: String(file.dropLast(4)))
            return try await VideoResponder.response(ServedVideo(playback), request: request, context: context, slot: slot)
        }

        routes.get("thumbs/:file", .booth, "a post's poster (JPEG), not hidden") { request, context in
            let file = context.parameters.get("file") ?? ""
            guard file.hasSuffix(".jpg"), PostID.isValid(String(file.dropLast(4))) else {
                throw APIError(.recorder(.notFound), "no such poster: ask for /api/thumbs/<post id>.jpg with an id from /api/feed.")
            }
            var response = HTTPAnswer.serveBytes(Data(try await library.poster(id: String(file.dropLast(4)))), contentType: "image/jpeg", request: request, context: context)
            // A post's poster never changes: the page may keep it for an hour.
            response.headers[.cacheControl] = "private, max-age=3600"
            return response
        }

        // A post's share link, for the guest's phone, and its QR code (SVG).
        routes.get("posts/:id/share", .booth, "a post's share link (the booth: only the post its current guest just made, while their thank-you is up)") { _, context in
            let (id, link) = try await shareLink(library, guests, context)
            return HTTPAnswer.encoded(ShareAnswer(id: id, shareURL: link.url, shareExpiresAt: link.expiresAt,
                                                 opensOnPhones: ShareLinks.opensOnPhones(link.url)))
        }

        routes.get("posts/:id/qr.svg", .booth, "a post's share link as a QR code (SVG; the booth: as for its link)") { _, context in
            let (_, link) = try await shareLink(library, guests, context)
            return try qrCode(link.url)
        }

        // The thank-you screen's first code, with kiosk.wifi_ssid: the phone joins the booth's Wi-Fi.
        routes.get("wifi/qr.svg", .booth, "the booth's own Wi-Fi as a Wi-Fi QR code (SVG), with kiosk.wifi_ssid set") { _, _ in
            guard let wifi = wifi else {
                throw APIError(.recorder(.notFound), "no Wi-Fi code: kiosk.wifi_ssid is not set (docs/venue.md).")
            }
            return try qrCode(wifi.qrText)
        }

        return routes
    }

    /// `text` as a QR code (SVG), never cached: a link or a password changes with the settings.
    private static func qrCode(_ text: String) throws(APIError) -> Response {
        let svg: String
        do throws(QRCodeError) { svg = try QRCode(text).svg() } catch {
            throw APIError(.recorder(.internalFailure), error.description)
        }
        var headers = HTTPFields()
        headers[.contentType] = "image/svg+xml"
        headers[.cacheControl] = "no-store"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(string: svg)))
    }

    struct ShareAnswer: Encodable {
        var id: String
        var shareURL: String
        var shareExpiresAt: String?
        /// False for a link to this machine's own loopback: the booth shows no code for it.
        var opensOnPhones: Bool
    }

    struct AttractPosts: Encodable {
        struct Post: Encodable { var id: String }
        var posts: [Post]
    }

    private static func shareLink(_ library: KioskLibrary, _ guests: GuestCoordinator, _ context: KioskRequestContext) async throws(APIError) -> (String, (url: String, expiresAt: String?)) {
        let id = context.parameters.get("id") ?? ""
        // The booth's screen shows the link of the post its current guest just made, while their
        // thank-you is up; never another guest's.
        guard PostID.isValid(id), context.identity?.role == .operator || guests.sharesLink(of: id) else {
            throw APIError(.recorder(.notFound), "no such post: '\(id)' is not the post this booth's current guest just made (the booth's token shows only that one, for a few minutes; the operator's shows any).")
        }
        guard let link = try await library.share(id: id) else {
            throw APIError(.recorder(.notFound), "post \(id) has no share link: its store gives none. Set share.base_url, or use an S3 store.")
        }
        return (id, link)
    }
}
