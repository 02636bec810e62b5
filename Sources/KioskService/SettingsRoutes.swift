import FoundationEssentials
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import Settings
import Failures
import KioskHTTP
import KioskState
import ShareServer

/// The operator page's Event section, under `/api/admin`: every setting with where it comes from,
/// the page's changes saved all or nothing (`EventSettings`), a branding frame uploaded and seen on
/// a still before it is saved, a test mail, and the restart that takes what was saved. Operator
/// only; a PUT or POST from another origin is refused as every other (`KioskGuard`).
enum SettingsRoutes {
    struct ChangeFields: Decodable {
        var changes: [String: SettingChange]?
    }

    struct TestMailFields: Decodable {
        var to: String?
        var changes: [String: SettingChange]?
    }

    static func collection(event: EventSettings, preview: LivePreview, logger: Logger) -> GuardedRoutes {
        let routes = GuardedRoutes()

        routes.get("settings", .operator, "every setting: its value (never a secret's), where it comes from, whether the page may change it") { _, _ in
            HTTPAnswer.encoded(await event.document())
        }

        routes.put("settings", .operator, "saves the Event section's changes, all or nothing: {\"changes\": {\"event.name\": \"...\"}}; taken at the next restart",
                   body: HTTPAnswer.maximumBody) { request, _ in
            let changes = try await changes(request)
            do throws(EventSettings.Refusal) {
                return HTTPAnswer.encoded(try await event.save(changes))
            } catch {
                return try answer(error)
            }
        }

        routes.post("settings/check", .operator, "what the changes would make, nothing saved: {\"changes\": ...} -> the findings, where share links point",
                    body: HTTPAnswer.maximumBody) { request, _ in
            let changes = try await changes(request)
            do throws(EventSettings.Refusal) {
                return HTTPAnswer.encoded(try await event.check(changes))
            } catch {
                return try answer(error)
            }
        }

        routes.post("frame", .operator, "keeps a branding frame (a PNG, Content-Type: image/png) to save as shoot.overlay: {\"upload\": ID}",
                    body: EventSettings.frameLimit) { request, _ in
            let type = request.headers[.contentType]?.lowercased() ?? ""
            guard type.hasPrefix("image/png") else {
                throw APIError(.unsupportedMediaType, "send the frame as a PNG with Content-Type: image/png (got \(type.isEmpty ? "none" : type)).")
            }
            var request = request
            let body: ByteBuffer
            do { body = try await request.collectBody(upTo: EventSettings.frameLimit) } catch {
                throw APIError(.tooLarge, "a frame is at most \(EventSettings.frameLimit >> 20) MiB: save it smaller (a PNG of the shot's size is plenty).")
            }
            let upload = try await event.keepFrame(Array(body.readableBytesView))
            logger.notice("operator page: frame \(upload.upload) kept (\(upload.width)x\(upload.height)), not saved yet")
            return HTTPAnswer.encoded(upload, status: .created)
        }

        routes.get("frame.png", .operator, "the saved branding frame (shoot.overlay)") { request, context in
            guard let path = await event.savedFrame() else {
                throw APIError(.recorder(.notFound), "no branding frame is set (shoot.overlay).")
            }
            return try await HTTPAnswer.serveFile(path, contentType: "image/png", request: request, context: context,
                                                missing: "the branding frame was removed meanwhile.", slot: nil)
        }

        routes.get("frame/still.jpg", .operator, "a still of the camera with a frame over it, as a shot records it: ?frame=ID|saved|none") { request, _ in
            let which = request.uri.queryParameters.get("frame") ?? "saved"
            let jpeg = try await preview.still(frame: which, event: event)
            var headers = HTTPFields()
            headers[.contentType] = "image/jpeg"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: jpeg)))
        }

        routes.post("mail/test", .operator, "sends a test mail with the mail settings shown (saved, or {\"changes\"} not saved): {\"to\": address} -> what the server said",
                    body: HTTPAnswer.maximumBody) { request, _ in
            let body = try await JSONBody.read(request, allowed: ["to", "changes"])
            let fields = try body.decode(TestMailFields.self)
            guard let to = fields.to else { throw APIError.badRequest("to is required: the address the test mail goes to.") }
            do throws(EventSettings.Refusal) {
                return HTTPAnswer.encoded(try await event.sendTestMail(to: to, changes: fields.changes ?? [:]))
            } catch {
                return try answer(error)
            }
        }

        routes.post("restart", .operator, "restarts the kiosk to take the saved settings, at the next moment nobody is at the booth") { request, _ in
            _ = try await JSONBody.read(request, allowed: [], optional: true)
            event.restart.request()
            logger.notice("operator page: restart asked for; it waits until nobody is at the booth")
            return HTTPAnswer.encoded(event.restart.status, status: .accepted)
        }

        return routes
    }

    /// The request's `changes`.
    private static func changes(_ request: Request) async throws(APIError) -> [String: SettingChange] {
        let body = try await JSONBody.read(request, allowed: ["changes"])
        guard let changes = try body.decode(ChangeFields.self).changes else {
            throw APIError.badRequest("changes is required: {\"changes\": {\"event.name\": \"Anna & Ben\", \"kiosk.countdown_seconds\": null}}.")
        }
        return changes
    }

    /// A refusal's answer: the request's error, or 422 with every finding (nothing was saved).
    private static func answer(_ refusal: EventSettings.Refusal) throws(APIError) -> Response {
        switch refusal {
        case .request(let error): throw error
        case .findings(let findings):
            return HTTPAnswer.encoded(EventSettings.refused(findings), status: .unprocessableContent)
        }
    }
}
