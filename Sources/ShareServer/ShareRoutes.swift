import FoundationEssentials
import HTTPTypes
package import Hummingbird
package import Logging
import NIOCore
import Publishing
package import SystemSupport
import KioskWords
package import KioskHTTP
import Library
import Failures

/// The share page a guest's phone opens, under `/s`: `/s/<token>`, its video, its poster and the
/// guest's own delete; mounted by the kiosk and by `recorder serve` alike (`Place` says what differs).
/// No API token is asked (the link is the capability to view), nothing lists or names another
/// post, and every link that opens nothing, whatever the reason, gets the same answer. Deleting
/// takes more than the link: the delete claim the guest's own phone got when it opened the link
/// first, while the booth's thank-you showed it (`ShareClaims`).
package enum ShareRoutes {
    /// What the booth and a share server do differently.
    package struct Place: Sendable {
        /// Whether the phone opening post `id`'s link now may take its delete claim: on the booth,
        /// while its thank-you shows that post; never on a share server.
        package var mayClaim: @Sendable (String) -> Bool
        /// Told when a guest deleted their post (the booth's metrics).
        package var deleted: @Sendable () -> Void
        /// What a link that opens nothing gets.
        package var unopened: SharePage.Unopened
        /// The pages' language for a request.
        package var language: @Sendable (Request) -> String
        /// The event's name, which the share page's title names (`RecorderConfiguration.eventName`); empty: none.
        package var event: String

        package init(mayClaim: @escaping @Sendable (String) -> Bool, deleted: @escaping @Sendable () -> Void, unopened: SharePage.Unopened,
                     language: @escaping @Sendable (Request) -> String, event: String = "") {
            (self.mayClaim, self.deleted, self.unopened, self.language, self.event) = (mayClaim, deleted, unopened, language, event)
        }
    }

    package static func collection(posts: SharedPosts, videos: ClientSlots, place: Place, logger: Logger, clock: any RecorderClock) -> GuardedRoutes {
        let routes = GuardedRoutes()

        routes.get(":token", .public, "a share link's page (the token is the capability to view; the first phone to open it within minutes of the post may delete)") { request, context in
            let token = context.parameters.get("token") ?? ""
            let language = place.language(request)
            guard let shared = await posts.post(token: token, now: clock.date) else { return unopened(place.unopened, language) }
            let metadata = shared.metadata
            let expires = posts.expiry(metadata)
            // The guest's own phone: it holds the post's claim, or it is the first to open the link
            // while the booth's thank-you shows it, and gets the claim now: by a GET that serves
            // the page (a HEAD, which shows nothing, never takes it: a link checker, or a scanner
            // that asks first, would hold the guest's claim).
            var canDelete = await posts.holdsClaim(metadata, secret: RequestCookies.value(named: ShareClaims.cookieName, in: request))
            var setCookie: String?
            if !canDelete, request.method == .get, place.mayClaim(metadata.id) {
                do throws(FileSystem.Failure) {
                    if let secret = try await posts.claim(metadata.id) {
                        canDelete = true
                        setCookie = ShareClaims.setCookie(secret, linkPath: "/s/\(token)", seconds: Int(expires.timeIntervalSince(clock.date)),
                                                          secure: context.reachedOverTLS(request))
                    }
                } catch {
                    // The page still opens; nobody can delete the post from its link (the operator can).
                    logger.warning("a share link's delete claim could not be kept (the guest's phone cannot delete its post; the operator can): cannot \(error.operation) \(error.path) in kiosk.state_dir: \(error.errno.description)")
                }
            }
            var response = page(SharePage.html(metadata, videoPath: "/s/\(token)/video.mp4",
                                               posterPath: shared.hasPoster ? "/s/\(token)/poster.jpg" : nil,
                                               deletePath: "/s/\(token)/delete", expires: expires, language: language, event: place.event,
                                               canDelete: canDelete,
                                               takePath: metadata.original == nil ? nil : "/s/\(token)/take.mp4",
                                               gifPath: shared.isLoop && posts.makesGIFs ? "/s/\(token)/loop.gif" : nil))
            if let setCookie { response.headers[.setCookie] = setCookie }
            return response
        }

        routes.post(":token/delete", .public, "the guest deletes their post from the phone that holds its claim: form confirm=delete", body: 256) { request, context in
            let token = context.parameters.get("token") ?? ""
            let language = place.language(request)
            guard let metadata = await posts.post(token: token, now: clock.date)?.metadata else { return unopened(place.unopened, language) }
            // The page's second step sends confirm=delete; a request without it deletes nothing.
            guard await confirmed(request) else {
                return page(SharePage.message(.tryAgain, language: language), status: .badRequest)
            }
            // The link alone views; deleting takes the claim only the guest's own phone holds.
            guard await posts.holdsClaim(metadata, secret: RequestCookies.value(named: ShareClaims.cookieName, in: request)) else {
                return page(SharePage.message(.deleteElsewhere, language: language), status: .forbidden)
            }
            do throws(RecorderError) {
                try await posts.delete(id: metadata.id)
            } catch {
                // The metadata goes last, so the link still opens what is left and a second try finishes.
                logger.warning("a guest's delete of post \(metadata.id) failed: \(APIError(error).message)")
                return page(SharePage.message(.deleteFailed, language: language), status: .serviceUnavailable)
            }
            place.deleted()
            logger.notice("post \(metadata.id) deleted from the store by its guest (share link)")
            return page(SharePage.message(.deletedForGood, language: language))
        }

        routes.get(":token/video.mp4", .public, "a share link's video (ranges)") { request, context in
            let token = context.parameters.get("token") ?? ""
            guard let shared = await posts.post(token: token, now: clock.date) else { return unopened(place.unopened, place.language(request)) }
            guard let slot = videos.take(for: context) else { return videos.busy(for: context).response }
            guard let response = await video(shared.queuedVideo, { posts.playback(shared.metadata) }, request, context, slot) else {
                return unopened(place.unopened, place.language(request))
            }
            // Saved under the caption's or the event's name, not the id; a boomerang as a loop.
            return sharedFile(response, file: ShareFileName.name(for: shared.metadata, part: shared.isLoop ? .loop : .video))
        }

        // The take a post's effect was made from (`effect.original`), served as the video is.
        routes.get(":token/take.mp4", .public, "a share link's original take, when its video is an effect (ranges)") { request, context in
            let token = context.parameters.get("token") ?? ""
            guard let shared = await posts.post(token: token, now: clock.date), let lookup = posts.playbackOriginal(shared.metadata) else {
                return unopened(place.unopened, place.language(request))
            }
            guard let slot = videos.take(for: context) else { return videos.busy(for: context).response }
            guard let response = await video(shared.queuedOriginal, { lookup }, request, context, slot) else {
                return unopened(place.unopened, place.language(request))
            }
            return sharedFile(response, file: ShareFileName.name(for: shared.metadata, part: .take))
        }

        // A boomerang as an animated GIF, only when asked for: made from its video on the first
        // request (a second or two) by the host's encoder (`SharedPosts.LoopGIFMaker`) and kept in
        // the cache. Where none was handed in, no GIF: the link opens nothing, as any other would.
        routes.get(":token/loop.gif", .public, "a share link's boomerang as an animated GIF, made on request") { request, context in
            let token = context.parameters.get("token") ?? ""
            guard let shared = await posts.post(token: token, now: clock.date), shared.isLoop, posts.makesGIFs else {
                return unopened(place.unopened, place.language(request))
            }
            guard let slot = videos.take(for: context) else { return videos.busy(for: context).response }
            let gif: String?
            do throws(RecorderError) {
                gif = try await posts.loopGIF(shared)
            } catch {
                logger.warning("a share link's GIF could not be made for post \(shared.metadata.id): \(APIError(error).message)")
                return unopened(place.unopened, place.language(request))
            }
            guard let gif, let response = try? await HTTPAnswer.serveFile(gif, contentType: "image/gif", request: request, context: context, missing: "",
                                                                 slot: slot) else { return unopened(place.unopened, place.language(request)) }
            return sharedFile(response, file: ShareFileName.name(for: shared.metadata, part: .gif))
        }

        // The player's first picture on the share page (iOS shows black without one): the queued
        // copy's poster, or the store's; served as the video is, to the link's holder alone.
        routes.get(":token/poster.jpg", .public, "a share link's poster (JPEG), the page's first picture") { request, context in
            let token = context.parameters.get("token") ?? ""
            guard let shared = await posts.post(token: token, now: clock.date), shared.hasPoster else { return unopened(place.unopened, place.language(request)) }
            var response: Response
            if let queued = shared.queuedPoster,
               let answer = try? await HTTPAnswer.serveFile(queued, contentType: "image/jpeg", request: request, context: context, missing: "") {
                response = answer
            } else if let bytes = await posts.poster(of: shared.metadata) {
                response = HTTPAnswer.serveBytes(Data(bytes), contentType: "image/jpeg", request: request, context: context)
            } else {
                return unopened(place.unopened, place.language(request))
            }
            response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
            response.headers[.cacheControl] = "private, no-store"
            return response
        }
        return routes
    }

    /// A share link's video or take, with ranges: its queued copy while there is one (gone only if
    /// it was sent this moment: then the store's), else the store's through the cache; nil: gone.
    static func video(_ queued: String?, _ stored: () -> VideoCache.Lookup, _ request: Request, _ context: KioskRequestContext,
                      _ slot: ClientSlots.Slot) async -> Response? {
        if let queued, let answer = try? await HTTPAnswer.serveFile(queued, contentType: "video/mp4", request: request, context: context,
                                                                   missing: "", slot: slot) {
            return answer
        }
        return try? await VideoResponder.response(ServedVideo(stored()), request: request, context: context, slot: slot)
    }

    /// A share link's file as the phone keeps it: under its name (RFC 6266, nothing raw), the
    /// token in its address told to no other site, never cached.
    static func sharedFile(_ response: Response, file: String) -> Response {
        var response = response
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[.cacheControl] = "private, no-store"
        response.headers[.contentDisposition] = ShareFileName.contentDisposition(file)
        return response
    }

    /// Whether the body is the page's form with `confirm=delete` (at most 256 bytes).
    static func confirmed(_ request: Request) async -> Bool {
        var request = request
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
              let body = try? await request.collectBody(upTo: 256) else { return false }
        return String(buffer: body).split(separator: "&").contains("confirm=delete")
    }

    /// A page a link opens: the token is in the address, so no other site learns it from a Referer,
    /// and no robot lists it. (same-origin, not no-referrer: under no-referrer a browser sends the
    /// page's own delete form with "Origin: null", which is refused as a sandboxed page's would be.)
    package static func page(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        var response = PageText.page(html, status: status)
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        response.headers[HTTPField.Name("X-Robots-Tag")!] = "noindex"
        return response
    }

    /// The one answer of a link that opens nothing: 404, and on a share server when to try again.
    package static func unopened(_ kind: SharePage.Unopened, _ language: String) -> Response {
        var response = page(SharePage.unopened(kind, language: language), status: .notFound)
        if kind == .notYet { response.headers[.retryAfter] = String(SharePage.retrySeconds) }
        return response
    }
}
