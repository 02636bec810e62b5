import FoundationEssentials
import HTTPTypes
package import Hummingbird
import NIOCore
import Library
import Publishing
package import SystemSupport
package import KioskHTTP

/// The host's gallery, under `/g`: `/g/<token>` (the page), a page of its posts as JSON, each post's
/// poster and video (ranges), the reel, and every post as one ZIP (`ArchiveResponder`). The token
/// is the capability; a wrong, revoked or expired one gets the same 404 as any link that opens
/// nothing, and so does a post that is not the gallery's (another event's, hidden, deleted,
/// expired). Mounted by `recorder serve` and the kiosk alike.
package enum HostGalleryRoutes {
    package static func collection(galleries: HostGalleries, videos: ClientSlots, archives: ClientSlots,
                                   language: @escaping @Sendable (Request) -> String, clock: any RecorderClock) -> GuardedRoutes {
        let routes = GuardedRoutes()
        let posts = galleries.posts
        @Sendable func gone(_ request: Request) -> Response { ShareRoutes.unopened(.gone, language(request)) }

        routes.get(":token", .public, "a host's gallery (the token is the capability): the event's posts, newest first") { request, context in
            let token = context.parameters.get("token") ?? ""
            let now = clock.date
            guard let gallery = await galleries.open(token, now: now) else { return gone(request) }
            let first = try await galleries.page(of: gallery, after: nil, now: now)
            return ShareRoutes.page(HostGalleryPage.html(gallery, base: "/g/\(token)", first: first, expires: galleries.galleries.expiry(of: gallery),
                                                         language: language(request)))
        }

        routes.get(":token/posts", .public, "a page of a host's gallery (JSON: posts, next; ?after= the page before's next)") { request, context in
            let token = context.parameters.get("token") ?? ""
            let now = clock.date
            guard let gallery = await galleries.open(token, now: now) else { return gone(request) }
            let page = try await galleries.page(of: gallery, after: request.uri.queryParameters.get("after"), now: now)
            var response = HTTPAnswer.encoded(HostGalleryPage.Page(posts: page.posts, next: page.next))
            response.headers[.cacheControl] = "private, no-store"
            return response
        }

        routes.get(":token/reel.mp4", .public, "a host's gallery's highlight reel (ranges)") { request, context in
            let token = context.parameters.get("token") ?? ""
            guard let gallery = await galleries.open(token, now: clock.date), let reel = gallery.reelVideo else { return gone(request) }
            return await video(reel, name: PostArchive.fileName(gallery).replacing(".zip", with: ".mp4"), request: request, context: context) ?? gone(request)
        }

        routes.get(":token/:id/video.mp4", .public, "a host's gallery's post's video (ranges)") { request, context in
            let (token, id) = (context.parameters.get("token") ?? "", context.parameters.get("id") ?? "")
            let now = clock.date
            guard let gallery = await galleries.open(token, now: now), let metadata = await galleries.post(id, of: gallery, now: now) else { return gone(request) }
            return await video(metadata, name: ShareFileName.name(for: metadata), request: request, context: context) ?? gone(request)
        }

        routes.get(":token/:id/poster.jpg", .public, "a host's gallery's post's poster (JPEG)") { request, context in
            let (token, id) = (context.parameters.get("token") ?? "", context.parameters.get("id") ?? "")
            let now = clock.date
            guard let gallery = await galleries.open(token, now: now), let metadata = await galleries.post(id, of: gallery, now: now),
                  let bytes = await posts.poster(of: metadata) else { return gone(request) }
            var response = HTTPAnswer.serveBytes(Data(bytes), contentType: "image/jpeg", request: request, context: context)
            response.headers[.cacheControl] = "private, max-age=3600"
            return unlisted(response)
        }

        routes.get(":token/archive.zip", .public, "every post of a host's gallery as one ZIP, streamed from the store (ranges, If-Range)") { request, context in
            let token = context.parameters.get("token") ?? ""
            let now = clock.date
            guard let gallery = await galleries.open(token, now: now) else { return gone(request) }
            guard let slot = archives.take(for: context) else { return archives.busy(for: context).response }
            // Read now: a post deleted after the page was loaded is not in it.
            let archive = try await galleries.archive(of: gallery, now: now)
            return unlisted(ArchiveResponder.response(archive, store: posts.feed.store, fileName: PostArchive.fileName(gallery), request: request,
                                                     context: context, slot: slot))
        }

        /// A post's (or the reel's) video through the cache, as a share link's is sent; nil when
        /// the store has it no more.
        @Sendable func video(_ metadata: PostMetadata, name: String, request: Request, context: KioskRequestContext) async -> Response? {
            guard let slot = videos.take(for: context) else { return videos.busy(for: context).response }
            guard var response = try? await VideoResponder.response(ServedVideo(posts.playback(metadata)), request: request, context: context,
                                                                    slot: slot) else { return nil }
            response.headers[.cacheControl] = "private, no-store"
            response.headers[.contentDisposition] = ShareFileName.contentDisposition(name)
            return unlisted(response)
        }
        return routes
    }

    /// No other site learns a gallery's address from a Referer, and no robot lists it.
    private static func unlisted(_ response: Response) -> Response {
        var response = response
        response.headers[HTTPField.Name("Referrer-Policy")!] = "no-referrer"
        response.headers[HTTPField.Name("X-Robots-Tag")!] = "noindex"
        return response
    }
}
