import FoundationEssentials
import HTTPTypes
import Hummingbird
import NIOCore
import Settings
import Shooting
import KioskHTTP
import ShareServer

/// What the booth's screen follows live, under `/api`: the status and its event stream, the
/// microphone's level, and the camera's mirror.
enum LiveRoutes {
    static let boundary = "recorderframe"

    static func collection(status: StatusReporter, events: EventStream, manager: CameraManager, audio: AudioChoice, preview: LivePreview,
                           mirrors: ClientSlots, streams: ClientSlots) -> GuardedRoutes {
        let routes = GuardedRoutes()

        // The booth's token sees the booth's view: no queued post's id, no store address, no path.
        routes.get("status", .booth, "the kiosk's status: state, current shot, outbox, disk") { _, context in
            let current = await status.status()
            return HTTPAnswer.encoded(context.identity?.role == .operator ? current : status.boothView(current))
        }

        routes.get("sound", .booth, "the microphone's level") { _, _ in
            let level = await manager.soundLevel(audio)
            return HTTPAnswer.encoded(KioskAPI.SoundLevel(peakDBFS: level?.peakDBFS, rmsDBFS: level?.rmsDBFS))
        }

        routes.get("events", .booth, "the status as Server-Sent Events, at each change") { _, context in
            var headers = HTTPFields()
            headers[.contentType] = "text/event-stream"
            headers[.cacheControl] = "no-store"
            // The booth's screen and the operator have places of their own (`KioskLimits.events`).
            guard let slot = streams.take(for: context) else { throw streams.busy(for: context) }
            let operatorView = context.identity?.role == .operator
            let subscription = events.hub.subscribe(operatorView ? .operator : .booth)
            // The first event is the current status, so a client never starts from nothing: to this
            // client alone (subscribed first, so no change after it is missed).
            let current = await status.status()
            events.hub.send("status", value: operatorView ? current : status.boothView(current), to: subscription.id)
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                // (the place is the listener's for as long as its stream runs)
                _ = slot
                for await event in subscription.stream { try await writer.write(event) }
                try await writer.finish(nil)
            })
        }

        // The live mirror: multipart/x-mixed-replace, one JPEG per camera picture (15 a second at
        // most), which an <img> shows as it comes. It ends when no picture came for 2 s (the page
        // opens it again) or the kiosk stops.
        routes.get("preview.mjpeg", .booth, "the live mirror: one JPEG per camera picture") { _, context in
            guard let slot = mirrors.take(for: context) else { throw mirrors.busy(for: context) }
            var headers = HTTPFields()
            headers[.contentType] = "multipart/x-mixed-replace; boundary=\(Self.boundary)"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody { writer in
                // (the place is the viewer's for as long as this runs)
                _ = slot
                var serial: UInt64 = 0
                // X-Mirrored: 1 under a branding frame: the picture is mirrored already and the
                // frame reads as recorded, so the page shows it as it is (else it mirrors it).
                let mirrored = preview.streamIsMirrored ? "X-Mirrored: 1\r\n" : ""
                while let (jpeg, next, age) = await preview.nextJPEG(after: serial) {
                    serial = next
                    // X-Age-Ms: how long ago the camera's picture was taken (the page adds its own
                    // decode and paint, and shows the sum as the mirror's latency).
                    // X-Frame-Clear: where the frame leaves the picture clear (its bands' shares of
                    // the picture: top bottom left right), for the page to keep its buttons there.
                    let clear = preview.streamFrameClearArea.map { "X-Frame-Clear: \($0.header)\r\n" } ?? ""
                    var part = ByteBuffer(string: "--\(Self.boundary)\r\nContent-Type: image/jpeg\r\nContent-Length: \(jpeg.count)\r\nX-Age-Ms: \(age)\r\n\(mirrored)\(clear)\r\n")
                    part.writeBytes(jpeg)
                    part.writeString("\r\n")
                    // (throws when the viewer has gone: the loop ends with it)
                    try await writer.write(part)
                }
                try await writer.finish(nil)
            })
        }

        routes.get("preview.jpg", .booth, "one picture of the camera") { _, _ in
            let jpeg = try await preview.jpeg()
            var headers = HTTPFields()
            headers[.contentType] = "image/jpeg"
            headers[.cacheControl] = "no-store"
            return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: jpeg)))
        }
        return routes
    }
}
