import FoundationEssentials
import HTTPTypes
import Logging
import Hummingbird
import NIOCore
import Settings
import Publishing
import SystemSupport
import KioskHTTP
import ShareServer
import Failures

/// The operator's API, under `/api/admin`: the overview the operator page shows, and moderation
/// (hide a post from the gallery, show it again, delete it from the store). Like every `/api`
/// route it needs the token whenever one is configured, on loopback too.
enum AdminRoutes {
    struct DeleteFields: Decodable {
        /// The post's id again: a delete is confirmed by naming what it deletes.
        var confirm: String?
    }

    struct Moderated: Encodable {
        var id: String
        var hidden: Bool?
        var deleted: Bool?
    }

    struct HiddenPosts: Encodable {
        var posts: [FeedEntry]
    }

    struct ReelFields: Decodable {
        /// A day (2026-11-24, from midnight UTC) or an RFC 3339 time.
        var since: String?
        /// Only the answers to this question.
        var prompt: String?
    }

    static func collection(overview: OperatorOverview, library: KioskLibrary, reels: ReelMaker, videos: ClientSlots, logger: Logger,
                           table: @escaping @Sendable () -> [KioskRoute]) -> GuardedRoutes {
        let routes = GuardedRoutes()

        routes.get("overview", .operator, "camera, microphone, button, the outbox post by post, problems, disk, configuration (secrets masked)") { _, _ in
            HTTPAnswer.encoded(await overview.overview())
        }

        routes.get("hidden", .operator, "the posts hidden from the gallery") { _, _ in
            HTTPAnswer.encoded(HiddenPosts(posts: try await library.hiddenPosts()))
        }

        routes.post("posts/:id/hide", .operator, "hides a post from the gallery (it stays in the store)") { request, context in
            let id = try postID(context)
            _ = try await JSONBody.read(request, allowed: [], optional: true)
            try await library.hide(id: id)
            logger.notice("post \(id) hidden from the gallery by the operator")
            return HTTPAnswer.encoded(Moderated(id: id, hidden: true))
        }

        routes.post("posts/:id/show", .operator, "shows a hidden post again") { request, context in
            let id = try postID(context)
            _ = try await JSONBody.read(request, allowed: [], optional: true)
            try await library.show(id: id)
            logger.notice("post \(id) shown in the gallery again by the operator")
            return HTTPAnswer.encoded(Moderated(id: id, hidden: false))
        }

        routes.post("posts/:id/delete", .operator, "deletes a post from the store: {\"confirm\": id}") { request, context in
            let id = try postID(context)
            let body = try await JSONBody.read(request, allowed: ["confirm"])
            let fields = try body.decode(DeleteFields.self)
            guard fields.confirm == id else {
                throw APIError.badRequest("deleting post \(id) from the store cannot be undone: confirm it with {\"confirm\": \"\(id)\"}.")
            }
            try await library.delete(id: id)
            logger.notice("post \(id) deleted from the store by the operator")
            return HTTPAnswer.encoded(Moderated(id: id, deleted: true))
        }

        routes.get("reel", .operator, "the highlight reel: idle, making (the step), done (posts, seconds) or failed (why); when the first post was made") { _, _ in
            var status = reels.status
            // (a listing of the feed's index: not every second while a reel is being made)
            if status.state != "making" { status.firstPostAt = try await library.firstPostTime().map(RFC3339.string) }
            return HTTPAnswer.encoded(status)
        }

        routes.post("reel", .operator, "makes the highlight reel of the posts since a day (none: since the first post) in the background: {\"since\": \"2026-11-24\", \"prompt\": question}") { request, _ in
            let body = try await JSONBody.read(request, allowed: ["since", "prompt"])
            let fields = try body.decode(ReelFields.self)
            let text = fields.since ?? ""
            // No first day: from the event's first post (the whole feed).
            let first = text.isEmpty ? (try await library.firstPostTime() ?? Date(timeIntervalSince1970: 0)) : nil
            guard let since = first ?? RFC3339.date(text) ?? (text.count == 10 ? RFC3339.date(text + "T00:00:00Z") : nil) else {
                throw APIError.badRequest("give the reel's first day as {\"since\": \"2026-11-24\"} (from midnight UTC) or a time (2026-11-24T18:00:00Z), or nothing for all the posts since the first.")
            }
            let prompt = fields.prompt?.trimmed()
            if let prompt, prompt.count > Prompts.maximumLength {
                throw APIError.badRequest("a question has at most \(Prompts.maximumLength) characters (kiosk.prompts); this one has \(prompt.count).")
            }
            guard reels.start(since: since, prompt: prompt?.isEmpty == true ? nil : prompt) else {
                throw APIError(.recorder(.busy), "a reel is being made already: wait for it to finish (GET /api/admin/reel shows its step).")
            }
            logger.notice("highlight reel started by the operator: posts since \(RFC3339.string(since))")
            return HTTPAnswer.encoded(reels.status, status: .accepted)
        }

        routes.get("reel.mp4", .operator, "the latest highlight reel (ranges)") { request, context in
            guard let file = reels.file else {
                throw APIError(.recorder(.notFound), "no highlight reel has been made yet: make one first (POST /api/admin/reel).")
            }
            guard let slot = videos.take(for: context) else { throw videos.busy(for: context) }
            return try await HTTPAnswer.serveFile(file, contentType: "video/mp4", request: request, context: context,
                                                missing: "the highlight reel was removed meanwhile: make it again.", slot: slot)
        }

        routes.get("routes", .operator, "every route of the kiosk and who may call it") { _, _ in
            HTTPAnswer.encoded(table())
        }

        return routes
    }

    private static func postID(_ context: KioskRequestContext) throws(APIError) -> String {
        let id = context.parameters.get("id") ?? ""
        guard PostID.isValid(id) else {
            throw APIError(.recorder(.notFound), "no such post: '\(id)' is not a post id (10 letters and digits, as the gallery shows them).")
        }
        return id
    }
}
