import FoundationEssentials
import HTTPTypes
import Hummingbird
import NIOCore
import RecorderCore
import StorageUpload
import SystemSupport

/// The gallery, under `/api`: pages of posts and their videos through the cache.
enum GalleryRoutes {
    static func collection(_ kiosk: Kiosk) -> RouteCollection<BasicRequestContext> {
        let routes = RouteCollection(context: BasicRequestContext.self)

        routes.get("feed") { request, _ in
            await KioskAPI.handle { () async throws(APIError) -> Response in
                let text = request.uri.queryParameters.get("page") ?? "1"
                guard let number = Int(text), (1...100_000).contains(number) else {
                    throw APIError.badRequest("page must be a number from 1 (the newest posts); got '\(text)'.")
                }
                let page = try await kiosk.library.page(number)
                return KioskAPI.encoded(KioskAPI.GalleryPage(posts: page.entries, page: number, hasMore: page.next != nil))
            }
        }

        routes.get("videos/:file") { request, context in
            await KioskAPI.handle { () async throws(APIError) -> Response in
                let file = context.parameters.get("file") ?? ""
                guard file.hasSuffix(".mp4"), PostID.isValid(String(file.dropLast(4))) else {
                    throw APIError(.notFound, "no such video: ask for /api/videos/<post id>.mp4 with an id from /api/feed.", exitStatus: .noInput)
                }
                let video = try await kiosk.library.video(id: String(file.dropLast(4)))
                if let bytes = video.bytes {
                    return KioskAPI.serveBytes(bytes, contentType: "video/mp4", request: request)
                }
                return try await KioskAPI.serveFile(video.path, contentType: "video/mp4", request: request, context: context,
                                           missing: "the cached video was removed meanwhile; ask again.")
            }
        }

        return routes
    }
}
