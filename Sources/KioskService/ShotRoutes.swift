import FoundationEssentials
import HTTPTypes
import Logging
import Hummingbird
import NIOCore
import Settings
import SystemSupport
import Shooting
import Publishing

/// The camera and the shot, under `/api`: status and its event stream, shoot, stop, post, the
/// current shot's video and the live preview.
enum ShotRoutes {
    static let boundary = "recorderframe"

    static func collection(_ kiosk: Kiosk) -> GuardedRoutes {
        let routes = GuardedRoutes()

        routes.get("status", .booth, "the kiosk's status: state, current shot, outbox, disk") { _, _ in
            KioskAPI.encoded(await kiosk.status())
        }

        routes.get("sound", .booth, "the microphone's level") { _, _ in
            let level = await kiosk.manager.soundLevel(kiosk.settings.audio)
            return KioskAPI.encoded(KioskAPI.SoundLevel(peakDBFS: level?.peakDBFS, rmsDBFS: level?.rmsDBFS))
        }

        routes.get("events", .booth, "the status as Server-Sent Events, at each change") { _, _ in
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-store"
            guard let subscription = kiosk.hub.subscribe() else {
                return APIError(.tooManyRequests, "too many event streams are open (at most \(EventHub.limit)); close a page of the kiosk and try again.",
                                kind: .busy).response
            }
            // The first event is the current status, so a client never starts from nothing: to this
            // client alone (subscribed first, so no change after it is missed).
            kiosk.hub.send("status", value: await kiosk.status(), to: subscription.id)
            return Response(status: .ok, headers: headers, body: ResponseBody(asyncSequence: subscription.stream))
        }

        routes.post("shoot", .booth, "starts a shot: {\"seconds\", \"countdown\", \"retake\": the shot under review}") { request, _ in
            await KioskAPI.handle { () async throws(APIError) -> Response in
                let body = try await JSONBody.read(request, allowed: ["seconds", "countdown", "retake"])
                let fields = try body.decode(KioskAPI.ShootFields.self)
                let seconds = fields.seconds ?? kiosk.settings.seconds
                guard seconds.isFinite, seconds >= 1, seconds <= KioskSettings.maximumSeconds else {
                    throw APIError.badRequest("seconds must be from 1 to \(Int(KioskSettings.maximumSeconds)) (got \(seconds)).")
                }
                let countdown = fields.countdown ?? kiosk.settings.countdown
                guard (0...60).contains(countdown) else {
                    throw APIError.badRequest("countdown must be from 0 to 60 seconds (got \(countdown)).")
                }
                // A retake names the shot its guest reviews: under kiosk.consent only that guest's own
                // retake starts a shot under their yes once something was recorded under it.
                var retaking: Shot?
                if let retake = fields.retake, let current = await kiosk.currentShot(), current.id == retake { retaking = current }
                guard let request = kiosk.guestShotRequest(seconds: seconds, retaking: retaking) else { throw ConsentGate.refusal }
                do {
                    try await kiosk.manager.begin(request, countdown: countdown)
                } catch {
                    await kiosk.releasePromptUnlessRecording()
                    throw APIError(RecorderError.wrap(error))
                }
                kiosk.consent?.started(under: request.consent)
                return KioskAPI.encoded(await kiosk.status(), status: .accepted)
            }
        }

        // kiosk.consent: the guest page's yes (with the digest of the text it showed), no, or done
        // (the guest left): a yes lets shots start until the guest posts, deletes or is done.
        routes.post("consent", .booth, "a guest's answer to kiosk.consent: {\"answer\": \"yes\"|\"no\"|\"done\", \"textSha256\"}") { request, _ in
            await KioskAPI.handle { () async throws(APIError) -> Response in
                let body = try await JSONBody.read(request, allowed: ["answer", "textSha256"])
                let fields = try body.decode(KioskAPI.ConsentFields.self)
                guard let consent = kiosk.consent else {
                    throw APIError(.notFound, "kiosk.consent is off: there is nothing to agree to, and shots start without it.", kind: .notFound)
                }
                switch fields.answer {
                case "yes":
                    guard let digest = fields.textSha256 else {
                        throw APIError.badRequest("textSha256 is required with a yes: the SHA-256 of the text the guest was shown (status.consent.textSha256).")
                    }
                    try consent.give(textSha256: digest)
                    // A new guest: the last one's link leaves the booth's screen.
                    kiosk.shareWindow.close()
                    kiosk.metrics.consentAnswered("yes")
                    kiosk.logger.info("consent: a guest agreed")
                case "no":
                    consent.end()
                    kiosk.metrics.consentAnswered("no")
                    kiosk.logger.info("consent: a guest said no; nothing was recorded")
                case "done":
                    consent.end()
                default:
                    throw APIError.badRequest("answer must be yes, no or done (got \(fields.answer.map { "'\($0.prefix(40))'" } ?? "nothing")).")
                }
                kiosk.announce.call("consent")
                return KioskAPI.encoded(await kiosk.status())
            }
        }

        routes.post("stop", .booth, "stops the shot under way (or its countdown)") { request, _ in
            await KioskAPI.handle { () async throws(APIError) -> Response in
                _ = try await JSONBody.read(request, allowed: [], optional: true)
                let stopped = await kiosk.manager.stop()
                return KioskAPI.encoded(KioskAPI.StopAnswer(stopped: stopped, state: (await kiosk.manager.recordState).name))
            }
        }

        // A Post names the shot its guest reviewed: a Post that arrives late (retried, or from a
        // review that has ended) never publishes the next guest's shot.
        routes.post("post", .booth, "posts the current shot if it is {\"id\"}: {\"id\", \"caption\"}") { request, _ in
            await KioskAPI.handle { () async throws(APIError) -> Response in
                let body = try await JSONBody.read(request, allowed: ["id", "caption"])
                let fields = try body.decode(KioskAPI.PostFields.self)
                guard let id = fields.id, !id.isEmpty else {
                    throw APIError.badRequest("id is required: the shot to post, as status.currentShot.id names it ({\"id\": \"...\", \"caption\": \"...\"}).")
                }
                guard let caption = fields.caption else {
                    throw APIError.badRequest("caption is required (it may be empty: {\"caption\": \"\"}).")
                }
                do throws(RecorderError) { _ = try Caption.validate(caption) } catch { throw APIError(error) }
                let item = try await kiosk.post(shotID: id, caption: caption)
                return KioskAPI.encoded(KioskAPI.QueuedAnswer(id: item.metadata.id, status: "queued", bytes: item.metadata.byteSize), status: .accepted)
            }
        }

        // A guest's "Delete" in review: {"id": ...} names the shot, so a delete that arrives after
        // the next guest's shot never deletes that one.
        routes.post("shot/current/discard", .booth, "deletes the current shot if it is {\"id\"} and not posted") { request, _ in
            await KioskAPI.handle { () async throws(APIError) -> Response in
                let body = try await JSONBody.read(request, allowed: ["id"])
                let fields = try body.decode(KioskAPI.DiscardFields.self)
                guard let id = fields.id, !id.isEmpty else { throw APIError.badRequest("id is required: the shot to delete.") }
                do {
                    try await kiosk.discard(shotID: id)
                } catch {
                    throw APIError(RecorderError.wrap(error))
                }
                return KioskAPI.encoded(await kiosk.status())
            }
        }

        routes.get("shot/current/video.mp4", .booth, "the current shot's video, for review (ranges)") { request, context in
            await KioskAPI.handle { () async throws(APIError) -> Response in
                guard let shot = await kiosk.currentShot() else {
                    throw APIError(.notFound, "there is no shot yet: record one first.", kind: .notFound)
                }
                return try await KioskAPI.serveFile(shot.videoPath, contentType: "video/mp4", request: request, context: context,
                                           missing: "the current shot's video is no longer in the workspace (it was posted).")
            }
        }

        // The live mirror: multipart/x-mixed-replace, one JPEG per camera picture (15 a second at
        // most), which an <img> shows as it comes. It ends when no picture came for 2 s (the page
        // opens it again) or the kiosk stops.
        routes.get("preview.mjpeg", .booth, "the live mirror: one JPEG per camera picture") { _, context in
            guard let slot = kiosk.limits.mirrors.take(for: context) else { return kiosk.limits.mirrors.busy(for: context).response }
            var headers = HTTPFields()
            headers[.contentType] = "multipart/x-mixed-replace; boundary=\(Self.boundary)"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                // (the place is the viewer's for as long as this runs)
                _ = slot
                var serial: UInt64 = 0
                while let (jpeg, next, age) = await kiosk.nextPreviewJPEG(after: serial) {
                    serial = next
                    // X-Age-Ms: how long ago the camera's picture was taken (the page adds its own
                    // decode and paint, and shows the sum as the mirror's latency).
                    var part = ByteBuffer(string: "--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\nX-Age-Ms: \(age)\r\n\r\n")
                    part.writeBytes(jpeg)
                    part.writeString("\r\n")
                    // (throws when the viewer has gone: the loop ends with it)
                    try await writer.write(part)
                }
                try await writer.finish(nil)
            })
        }

        routes.get("preview.jpg", .booth, "one picture of the camera") { _, _ in
            await KioskAPI.handle { () async throws(APIError) -> Response in
                let jpeg = try await kiosk.previewJPEG()
                var headers = HTTPFields()
                headers[.contentType] = "image/jpeg"
                headers[.cacheControl] = "no-store"
                return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: jpeg)))
            }
        }
        return routes
    }
}
