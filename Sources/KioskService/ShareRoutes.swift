import FoundationEssentials
import HTTPTypes
import Hummingbird
import NIOCore
import RecorderCore

/// The share page a guest's phone opens, under `/s`: `/s/<token>` and its video. No API token is
/// asked (the link is the capability), nothing lists or names another post, and every link that
/// opens nothing, whatever the reason, gets the same 404.
enum ShareRoutes {
    static func collection(_ kiosk: Kiosk) -> GuardedRoutes {
        let routes = GuardedRoutes()
        let language = kiosk.settings.booth.language

        routes.get(":token", .public, "a share link's page (the token is the capability)") { _, context in
            let token = context.parameters.get("token") ?? ""
            guard let metadata = await kiosk.library.sharedPost(token: token) else { return gone(language) }
            let expires = kiosk.library.shareExpiry(metadata)
            return page(SharePage.html(metadata, videoPath: "/s/\(token)/video.mp4", expires: expires, language: language))
        }

        routes.get(":token/video.mp4", .public, "a share link's video (ranges)") { request, context in
            let token = context.parameters.get("token") ?? ""
            guard let metadata = await kiosk.library.sharedPost(token: token) else { return gone(language) }
            guard let slot = kiosk.limits.videos.take(context.client) else { return kiosk.limits.videos.busy().response }
            var response: Response
            do throws(APIError) {
                response = try await VideoResponder.response(kiosk.library.playback(metadata), request: request, context: context, slot: slot)
            } catch {
                return gone(language)
            }
            response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
            response.headers[.cacheControl] = "private, no-store"
            return response
        }
        return routes
    }

    static func page(_ html: String, status: HTTPResponse.Status = .ok) -> Response {
        var response = ServiceRoutes.page(html)
        response.status = status
        // The token is in the address: no other site learns it from a Referer, and no robot lists it.
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("X-Robots-Tag")!] = "noindex"
        return response
    }

    static func gone(_ language: String) -> Response {
        page(SharePage.gone(language: language), status: .notFound)
    }
}
