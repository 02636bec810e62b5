import FoundationEssentials
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Publishing
import Settings
import SystemSupport
import KioskWords
import KioskHTTP
import KioskState

/// The share page a guest's phone opens, under `/s`: `/s/<token>`, its video, and the guest's own
/// delete. No API token is asked (the link is the capability to view), nothing lists or names
/// another post, and every link that opens nothing, whatever the reason, gets the same 404.
/// Deleting takes more than the link: the delete claim the guest's own phone got when it opened
/// the link first, while the booth's thank-you showed it (`ShareClaims`).
enum ShareRoutes {
    static func collection(library: KioskLibrary, guests: GuestCoordinator, videos: ClientSlots, metrics: KioskMetrics, logger: Logger,
                           language: String, clock: any RecorderClock) -> GuardedRoutes {
        let routes = GuardedRoutes()

        routes.get(":token", .public, "a share link's page (the token is the capability to view; the first phone to open it within minutes of the post may delete)") { request, context in
            let token = context.parameters.get("token") ?? ""
            guard let shared = await library.sharedPost(token: token) else { return gone(language) }
            let metadata = shared.metadata
            let expires = library.shareExpiry(metadata)
            // The guest's own phone: it holds the post's claim, or it is the first to open the link
            // while the booth's thank-you shows it, and gets the claim now: by a GET that serves
            // the page (a HEAD, which shows nothing, never takes it: a link checker, or a scanner
            // that asks first, would hold the guest's claim).
            var canDelete = await library.holdsClaim(metadata.id, secret: KioskCredentials.cookie(named: ShareClaims.cookieName, in: request))
            var setCookie: String?
            if !canDelete, request.method == .get, guests.sharesLink(of: metadata.id) {
                do throws(FileSystem.Failure) {
                    if let secret = try await library.claim(metadata.id) {
                        canDelete = true
                        setCookie = ShareClaims.setCookie(secret, linkPath: "/s/\(token)", seconds: Int(expires.timeIntervalSince(clock.date)),
                                                          secure: KioskGuard.overTLS(request, context: context))
                    }
                } catch {
                    // The page still opens; nobody can delete the post from its link (the operator can).
                    logger.warning("a share link's delete claim could not be kept (the guest's phone cannot delete its post; the operator can): cannot \(error.operation) \(error.path) in kiosk.state_dir: \(error.errno.description)")
                }
            }
            var response = page(SharePage.html(metadata, videoPath: "/s/\(token)/video.mp4",
                                                posterPath: shared.hasPoster ? "/s/\(token)/poster.jpg" : nil,
                                                deletePath: "/s/\(token)/delete", expires: expires, language: language, canDelete: canDelete))
            if let setCookie { response.headers[.setCookie] = setCookie }
            return response
        }

        routes.post(":token/delete", .public, "the guest deletes their post from the phone that holds its claim: form confirm=delete", body: 256) { request, context in
            let token = context.parameters.get("token") ?? ""
            guard let metadata = await library.sharedPost(token: token)?.metadata else { return gone(language) }
            // The page's second step sends confirm=delete; a request without it deletes nothing.
            guard await confirmed(request) else {
                return page(SharePage.message(.tryAgain, language: language), status: .badRequest)
            }
            // The link alone views; deleting takes the claim only the guest's own phone holds.
            guard await library.holdsClaim(metadata.id, secret: KioskCredentials.cookie(named: ShareClaims.cookieName, in: request)) else {
                return page(SharePage.message(.deleteElsewhere, language: language), status: .forbidden)
            }
            do throws(APIError) {
                try await library.delete(id: metadata.id)
            } catch {
                // The metadata goes last, so the link still opens what is left and a second try finishes.
                logger.warning("a guest's delete of post \(metadata.id) failed: \(error.message)")
                return page(SharePage.message(.deleteFailed, language: language), status: .serviceUnavailable)
            }
            metrics.guestDeleted()
            logger.notice("post \(metadata.id) deleted from the store by its guest (share link)")
            return page(SharePage.message(.deletedForGood, language: language))
        }

        routes.get(":token/video.mp4", .public, "a share link's video (ranges)") { request, context in
            let token = context.parameters.get("token") ?? ""
            guard let shared = await library.sharedPost(token: token) else { return gone(language) }
            guard let slot = videos.take(for: context) else { return videos.busy(for: context).response }
            var response: Response
            do throws(APIError) {
                // Still queued here: its own copy (gone only if it was sent this moment: then the store's).
                if let queued = shared.queuedVideo,
                   let answer = try? await HTTPAnswer.serveFile(queued, contentType: "video/mp4", request: request, context: context,
                                                              missing: "", slot: slot) {
                    response = answer
                } else {
                    response = try await VideoResponder.response(ServedVideo(library.playback(shared.metadata)), request: request, context: context, slot: slot)
                }
            } catch {
                return gone(language)
            }
            response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
            response.headers[.cacheControl] = "private, no-store"
            // Saved under the caption's or the event's name, not the id (RFC 6266, nothing raw).
            response.headers[.contentDisposition] = ShareFileName.contentDisposition(ShareFileName.name(for: shared.metadata))
            return response
        }

        // The player's first picture on the share page (iOS shows black without one): the queued
        // copy's poster, or the store's; served as the video is, to the link's holder alone.
        routes.get(":token/poster.jpg", .public, "a share link's poster (JPEG), the page's first picture") { request, context in
            let token = context.parameters.get("token") ?? ""
            guard let shared = await library.sharedPost(token: token), shared.hasPoster else { return gone(language) }
            var response: Response
            if let queued = shared.queuedPoster,
               let answer = try? await HTTPAnswer.serveFile(queued, contentType: "image/jpeg", request: request, context: context, missing: "") {
                response = answer
            } else if let bytes = try? await library.poster(id: shared.metadata.id) {
                response = HTTPAnswer.serveBytes(Data(bytes), contentType: "image/jpeg", request: request, context: context)
            } else {
                return gone(language)
            }
            response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
            response.headers[.cacheControl] = "private, no-store"
            return response
        }
        return routes
    }

    /// Whether the body is the page's form with `confirm=delete` (at most 256 bytes).
    static func confirmed(_ request: Request) async -> Bool {
        var request = request
        guard request.headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true,
              let body = try? await request.collectBody(upTo: 256) else { return false }
        return String(buffer: body).split(separator: "&").contains("confirm=delete")
    }

    static func page(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        var response = ServiceRoutes.page(html)
        response.status = status
        // The token is in the address: no other site learns it from a Referer, and no robot lists it.
        // (same-origin, not no-referrer: under no-referrer a browser sends the page's own delete
        // form with "Origin: null", which the kiosk refuses as it would a sandboxed page's.)
        response.headers[HTTPField.Name("Referrer-Policy")!] = "same-origin"
        response.headers[HTTPField.Name("X-Robots-Tag")!] = "noindex"
        return response
    }

    static func gone(_ language: String) -> Response {
        page(SharePage.gone(language: language), status: .notFound)
    }
}
