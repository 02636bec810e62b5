import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing
import ShotValues
@testable import KioskService
import Settings
@testable import Publishing
@testable import Shooting
import StorageUpload
import ShareServer

/// `kiosk.effects`: the guest chooses on the start screen, the kiosk records with the choice (the
/// booth's button too), reviews and posts the effect with its take; the share page plays it,
/// saves it as a loop, makes its GIF on request and offers the take. Files read back by ffprobe.
@Suite struct EffectKioskTests {
    private static let effects = ["kiosk.effects": "none, boomerang, slowmo", "effect.boomerang_seconds": "1", "shoot.size": "320x240"]

    @Test func theGuestsChoiceIsWhatTheNextShotsAreMadeInto() async throws {
        let fixture = try KioskFixture(token: AdminAPITests.token, more: Self.effects)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/status", method: .get, headers: AdminAPITests.authorized) { response in
                let booth = object(response)["booth"] as? [String: Any]
                #expect(booth?["effects"] as? [String] == ["none", "boomerang", "slowmo"] && booth?["effect"] as? String == "none", "\(String(describing: booth))")
            }
            for refused in [#"{"effect": "sepia"}"#, #"{"effect": 3}"#, #"{"effects": "boomerang"}"#] {
                try await client.execute(uri: "/api/effect", method: .post, headers: AdminAPITests.authorized, body: body(refused)) { response in
                    #expect(response.status == .badRequest, "\(refused)")
                }
            }
            try await client.execute(uri: "/api/effect", method: .post, headers: AdminAPITests.authorized, body: body(#"{"effect": "boomerang"}"#)) { response in
                #expect(response.status == .ok)
                #expect((object(response)["booth"] as? [String: Any])?["effect"] as? String == "boomerang")
                // The start screen invites to a boomerang's take, not the kiosk's usual length.
                #expect(object(response)["shotSeconds"] as? Double == 1, "\(object(response))")
            }
            // A press of the booth's button records with the choice.
            await fixture.kiosk.guests.press()
            await fixture.kiosk.manager.waitForShot()
            try await client.execute(uri: "/api/status", method: .get, headers: AdminAPITests.authorized) { response in
                let shot = object(response)["currentShot"] as? [String: Any]
                let effect = shot?["effect"] as? [String: Any]
                #expect(effect?["name"] as? String == "boomerang" && effect?["notRendered"] == nil, "\(String(describing: shot))")
                #expect((shot?["durationSeconds"] as? Double ?? 0) >= 3, "\(String(describing: shot))")
            }
            // The review plays the boomerang.
            try await client.execute(uri: "/api/shot/current/video.mp4", method: .get, headers: AdminAPITests.authorized) { response in
                let file = fixture.directory + "/review.mp4"
                try Data(response.body.readableBytesView).write(to: URL(fileURLWithPath: file))
                let seconds = try runTool("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", file])
                #expect((Double(seconds.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) >= 3, "the review plays \(seconds) s")
            }
            // The next guest starts from the first; an effect the list leaves out is refused.
            try await client.execute(uri: "/api/effect", method: .post, headers: AdminAPITests.authorized, body: body(#"{"effect": null}"#)) { response in
                #expect((object(response)["booth"] as? [String: Any])?["effect"] as? String == "none")
            }
        }
        let only = try KioskFixture(token: AdminAPITests.token, more: ["kiosk.effects": "none, slowmo"])
        defer { only.remove() }
        await only.start()
        try await only.application().test(.router) { client in
            try await client.execute(uri: "/api/shoot", method: .post, headers: AdminAPITests.authorized, body: body(#"{"effect": "boomerang"}"#)) { response in
                #expect(response.status == .badRequest)
            }
        }
        #expect(await only.kiosk.manager.recordState == .idle, "a refused effect started nothing")
    }

    @Test func thePhonePlaysTheBoomerangSavesItAsALoopAndGetsItsGIFAndTake() async throws {
        let fixture = try KioskFixture(token: AdminAPITests.token, more: Self.effects)
        defer { fixture.remove() }
        await fixture.start()
        fixture.kiosk.guests.choose(.boomerang)
        await fixture.kiosk.guests.press()
        await fixture.kiosk.manager.waitForShot()
        let item = try await fixture.kiosk.posting.post(caption: "Hin und zurück")
        try await fixture.waitForUpload(item.metadata.id)
        let id = item.metadata.id, token = try #require(item.metadata.shareToken)
        let store = LocalDirectoryBackend(root: fixture.directory + "/store")
        let take = try #require(try store.read(key: PostMetadata.originalKey(id: id), limit: 64 << 20))
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/s/\(token)", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains(#"src="/s/\#(token)/video.mp4""#) && page.contains(" loop autoplay muted"), "\(page)")
                #expect(page.contains(#"download="Hin und zurück-loop.mp4""#), "\(page)")
                #expect(page.contains(#"href="/s/\#(token)/loop.gif""#) && page.contains(#"href="/s/\#(token)/take.mp4""#), "\(page)")
            }
            try await client.execute(uri: "/s/\(token)/take.mp4", method: .get) { response in
                #expect(response.status == .ok)
                #expect(Array(response.body.readableBytesView) == take, "the take served is not the store's")
            }
            try await client.execute(uri: "/s/\(token)/loop.gif", method: .get) { response in
                #expect(response.status == .ok && response.headers[.contentType] == "image/gif")
                let gif = Data(response.body.readableBytesView)
                #expect(gif.count > 1000 && gif.count <= 8 << 20, "\(gif.count) bytes")
                let file = fixture.directory + "/loop.gif"
                try gif.write(to: URL(fileURLWithPath: file))
                let probe = try runTool("ffprobe", ["-v", "error", "-count_frames", "-show_entries", "stream=codec_name,width,nb_read_frames:format=duration",
                                                "-of", "default=nw=1", file])
                #expect(probe.contains("codec_name=gif") && probe.contains("width=320"), "\(probe)")
                let seconds = probe.split(separator: "\n").first { $0.hasPrefix("duration=") }.flatMap { Double($0.dropFirst(9)) } ?? 0
                #expect(seconds >= 3, "the GIF lasts \(seconds) s")
            }
        }
        // A share server on the same store (`recorder serve`, the encoder's GIF maker handed in, as
        // its command does) serves the take and the GIF as the booth did; one with no GIF maker
        // offers the take and no GIF, and its loop.gif opens nothing.
        for makesGIFs in [true, false] {
            let serve = try ServeFixture(store: fixture.directory + "/store", more: ["mail.event": "Anna & Ben"],
                                         loopGIF: makesGIFs ? SharedPosts.encodedGIF : nil)
            defer { serve.remove() }
            try await serve.application().test(.router) { client in
                try await client.execute(uri: "/s/\(token)", method: .get) { response in
                    let page = String(buffer: response.body)
                    #expect(response.status == .ok && page.contains(" loop autoplay muted") && page.contains(#"href="/s/\#(token)/take.mp4""#), "\(page)")
                    #expect(page.contains(#"href="/s/\#(token)/loop.gif""#) == makesGIFs, "\(page)")
                    // (the event's name, escaped, in the title: `shareTitleAtEvent`)
                    #expect(page.contains("Anna &amp; Ben"), "\(page)")
                }
                try await client.execute(uri: "/s/\(token)/take.mp4", method: .get) { response in
                    #expect(response.status == .ok && Array(response.body.readableBytesView) == take, "the take served is not the store's")
                }
                try await client.execute(uri: "/s/\(token)/loop.gif", method: .get) { response in
                    if makesGIFs {
                        #expect(response.status == .ok && response.headers[.contentType] == "image/gif")
                        let file = serve.directory + "/loop.gif"
                        try Data(response.body.readableBytesView).write(to: URL(fileURLWithPath: file))
                        let probe = try runTool("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width", "-of", "default=nw=1", file])
                        #expect(probe.contains("codec_name=gif") && probe.contains("width=320"), "\(probe)")
                    } else {
                        #expect(response.status == .notFound)
                    }
                }
            }
        }
        // Deleted from the store: the take goes with it, and the shot it came from says so.
        try await fixture.kiosk.library.delete(id: id)
        #expect(try store.stat(key: PostMetadata.originalKey(id: id)) == nil)
        #expect(try store.stat(key: PostMetadata.videoKey(id: id)) == nil)
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/status", method: .get, headers: AdminAPITests.authorized) { response in
                let shot = object(response)["currentShot"] as? [String: Any]
                #expect(shot?["postedAs"] as? String == id && shot?["postDeletedAt"] is String, "\(String(describing: shot))")
            }
        }
    }
}
