import FoundationEssentials
import HTTPTypes
import Hummingbird
import Settings
import Shooting
import Publishing
import KioskHTTP
import ShareServer
import KioskState
import Failures

/// The guest's shot, under `/api`: shoot, consent, stop, post, delete, and the current shot's
/// video. Starting a shot and answering kiosk.consent go through the guest's flow.
enum ShotRoutes {
    static func collection(guests: GuestCoordinator, posting: PostingDesk, manager: CameraManager, status: StatusReporter,
                           settings: KioskSettings) -> GuardedRoutes {
        let routes = GuardedRoutes()

        routes.post("shoot", .booth, "starts a shot: {\"seconds\", \"countdown\", \"retake\": the shot under review, \"effect\": one kiosk.effects offers}") { request, _ in
            let body = try await JSONBody.read(request, allowed: ["seconds", "countdown", "retake", "effect"])
            let fields = try body.decode(KioskAPI.ShootFields.self)
            let seconds = fields.seconds ?? settings.seconds
            guard seconds.isFinite, seconds >= 1, seconds <= KioskSettings.maximumSeconds else {
                throw APIError.badRequest("seconds must be from 1 to \(Int(KioskSettings.maximumSeconds)) (got \(seconds)).")
            }
            let countdown = fields.countdown ?? settings.countdown
            guard (0...60).contains(countdown) else {
                throw APIError.badRequest("countdown must be from 0 to 60 seconds (got \(countdown)).")
            }
            // A retake names the shot its guest reviews: under kiosk.consent only that guest's own
            // retake starts a shot under their yes once something was recorded under it.
            var retaking: Shot?
            if let retake = fields.retake, let current = await posting.currentShot(), current.id == retake { retaking = current }
            try await guests.shoot(seconds: seconds, countdown: countdown, retaking: retaking, effect: try settings.offeredEffect(fields.effect))
            return HTTPAnswer.encoded(await status.status(), status: .accepted)
        }

        // The start screen's choice of effect (kiosk.effects): the next shots get it, the
        // booth's button's too.
        routes.post("effect", .booth, "chooses the effect of the next shots: {\"effect\": one kiosk.effects offers, or null for the first}") { request, _ in
            let body = try await JSONBody.read(request, allowed: ["effect"])
            guests.choose(try settings.offeredEffect(body.decode(KioskAPI.EffectFields.self).effect))
            return HTTPAnswer.encoded(await status.status())
        }

        // kiosk.consent: the guest page's yes (with the digest of the text it showed), no, or done
        // (the guest left): a yes lets shots start until the guest posts, deletes or is done.
        routes.post("consent", .booth, "a guest's answer to kiosk.consent: {\"answer\": \"yes\"|\"no\"|\"done\", \"textSha256\"}") { request, _ in
            let body = try await JSONBody.read(request, allowed: ["answer", "textSha256"])
            let fields = try body.decode(KioskAPI.ConsentFields.self)
            try guests.answer(fields.answer, textSha256: fields.textSha256)
            return HTTPAnswer.encoded(await status.status())
        }

        routes.post("stop", .booth, "stops the shot under way (or its countdown)") { request, _ in
            _ = try await JSONBody.read(request, allowed: [], optional: true)
            let stopped = await manager.stop()
            return HTTPAnswer.encoded(KioskAPI.StopAnswer(stopped: stopped, state: (await manager.recordState).name))
        }

        // A Post names the shot its guest reviewed: a Post that arrives late (retried, or from a
        // review that has ended) never publishes the next guest's shot.
        routes.post("post", .booth, "posts the current shot if it is {\"id\"}: {\"id\", \"caption\"}", body: HTTPAnswer.maximumBody) { request, _ in
            let body = try await JSONBody.read(request, allowed: ["id", "caption"])
            let fields = try body.decode(KioskAPI.PostFields.self)
            guard let id = fields.id, !id.isEmpty else {
                throw APIError.badRequest("id is required: the shot to post, as status.currentShot.id names it ({\"id\": \"...\", \"caption\": \"...\"}).")
            }
            guard let caption = fields.caption else {
                throw APIError.badRequest("caption is required (it may be empty: {\"caption\": \"\"}).")
            }
            do throws(RecorderError) { _ = try Caption.validate(caption) } catch { throw APIError(error) }
            let item = try await posting.post(shotID: id, caption: caption)
            return HTTPAnswer.encoded(KioskAPI.QueuedAnswer(id: item.metadata.id, status: "queued", bytes: item.metadata.byteSize), status: .accepted)
        }

        // A guest's "Delete" in review: {"id": ...} names the shot, so a delete that arrives after
        // the next guest's shot never deletes that one.
        routes.post("shot/current/discard", .booth, "deletes the current shot if it is {\"id\"} and not posted") { request, _ in
            let body = try await JSONBody.read(request, allowed: ["id"])
            let fields = try body.decode(KioskAPI.DiscardFields.self)
            guard let id = fields.id, !id.isEmpty else { throw APIError.badRequest("id is required: the shot to delete.") }
            do {
                try await posting.discard(shotID: id)
            } catch {
                throw APIError(RecorderError.wrap(error))
            }
            return HTTPAnswer.encoded(await status.status())
        }

        routes.get("shot/current/video.mp4", .booth, "the current shot's video, for review (ranges)") { request, context in
            guard let shot = await posting.currentShot() else {
                throw APIError(.recorder(.notFound), "there is no shot yet: record one first.")
            }
            return try await HTTPAnswer.serveFile(shot.videoPath, contentType: "video/mp4", request: request, context: context,
                                                missing: "the current shot's video is no longer in the workspace (it was posted).")
        }
        return routes
    }
}
