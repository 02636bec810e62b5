import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Testing
import SystemSupport
@testable import KioskService
@testable import KioskHTTP
@testable import KioskState

/// Issue 50's hardening of what the booth's token reaches, each tried as its holder would: event
/// streams that left no place for the booth's screen and the operator, the status's queued post
/// ids, store address and outbox paths, and a HEAD that took a share link's delete claim.
@Suite(.serialized) struct BoothViewTests {
    static let operatorToken = AccessTests.operatorToken
    static let boothToken = AccessTests.boothToken

    static func address(_ text: String) -> SocketAddress { try! SocketAddress(ipAddress: text, port: 40000) }

    // 16 streams opened with the booth's token left the booth's screen and the operator with 429.
    @Test func aCrowdWithTheBoothsTokenLeavesTheBoothsScreenAndTheOperatorTheirStreams() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken)
        defer { fixture.remove() }
        let hub = fixture.kiosk.events.hub
        let watchdog = hub.finishing(after: .seconds(60))
        defer { watchdog.cancel() }
        try await fixture.application().test(.router) { client in
            let limits = fixture.kiosk.limits.events
            var crowd: [EventReader] = []
            // Whoever took the booth's token, from as many addresses as it takes to fill the crowd's places.
            for n in 0..<(limits.total / limits.perClient) {
                for _ in 0..<limits.perClient {
                    let (status, reader) = try await EventReader.open(client.responder, headers: AccessTests.headers(Self.boothToken),
                                                                      from: Self.address("10.50.0.\(n + 1)"))
                    #expect(status == .ok)
                    crowd.append(reader)
                }
            }
            let (refused, _) = try await EventReader.open(client.responder, headers: AccessTests.headers(Self.boothToken), from: Self.address("10.50.1.1"))
            #expect(refused == .tooManyRequests, "the crowd's places are full")
            let (screen, _) = try await EventReader.open(client.responder, headers: AccessTests.headers(Self.boothToken), from: Self.address("127.0.0.1"))
            #expect(screen == .ok, "the booth's screen has its own place: \(screen)")
            let (operatorStream, _) = try await EventReader.open(client.responder, headers: AccessTests.headers(Self.operatorToken),
                                                                 from: Self.address("10.50.2.1"))
            #expect(operatorStream == .ok, "the operator has its own place: \(operatorStream)")
            hub.finishAll()
        }
    }

    // The booth's token saw queued post ids, lastUploadedURL (the store's address) and outbox paths.
    @Test func theBoothsViewOfTheStatusHasNoQueuedPostStoreAddressOrPath() {
        let outbox = KioskStatus.Outbox(depth: 2, queued: ["Ab3dE5fG7h", "Zz9yX8wV7u"], uploading: "Ab3dE5fG7h", uploadingBytes: 10, uploadingTotal: 100,
                                        lastError: "post Ab3dE5fG7h was not uploaded: It stays queued in /var/lib/recorder/outbox/queue/1-Ab3dE5fG7h",
                                        lastUploaded: "Qq1wE2rT3y", lastUploadedURL: "https://store.example/bucket/videos/Qq1wE2rT3y.mp4", uploaded: 3)
        let status = KioskStatus(state: "idle", run: "r", revision: 1, camera: .init(device: "testsrc", present: true, previewRunning: false),
                                 sound: .init(choice: "none", muted: true, source: nil), outbox: outbox, disk: .init(low: false),
                                 booth: .init(reviewSeconds: 30, reviewUnposted: "keep", language: "en"), shotSeconds: 15, countdownSeconds: 3,
                                 version: "test", service: OutOfService([.diskNearlyFull(path: "/var/lib/recorder/outbox", free: 1, needed: 2),
                                                                          .storeFailing(queued: 2, waiting: .seconds(600), lastError: "in /var/lib/recorder/outbox")]))
        let booth = status.boothView(sharedPost: { _ in false })
        #expect(booth.outbox.queued.isEmpty && booth.outbox.uploading == nil && booth.outbox.lastError == nil)
        #expect(booth.outbox.lastUploadedURL == nil && booth.outbox.lastUploaded == nil)
        #expect(booth.outbox.depth == 2 && booth.outbox.uploaded == 3, "the counts stay")
        #expect(booth.service?.causes == [.diskNearlyFull(path: "", free: 1, needed: 2), .storeFailing(queued: 2, waiting: .seconds(600), lastError: "")])
        // The post its current guest shares: its id, so the thank-you shows its link once it is sent.
        #expect(status.boothView(sharedPost: { $0 == "Qq1wE2rT3y" }).outbox.lastUploaded == "Qq1wE2rT3y")
        #expect(status.boothView(sharedPost: { _ in true }).outbox.lastUploadedURL == nil)
        let json = String(decoding: try! HTTPAnswer.jsonEncoder.encode(booth), as: UTF8.self)
        #expect(!json.contains("/var/lib") && !json.contains("store.example") && !json.contains("Ab3dE5fG7h"), Comment(rawValue: json))
    }

    // The same over the API and the event stream: the operator sees the store's address, the booth not.
    @Test func theBoothsTokenIsAnsweredTheBoothsView() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken)
        defer { fixture.remove() }
        await fixture.start()
        let hub = fixture.kiosk.events.hub
        let watchdog = hub.finishing(after: .seconds(60))
        defer { watchdog.cancel() }
        try await fixture.application().test(.router) { client in
            let id = try await CrowdAccessTests.post(client, fixture, shot: try await CrowdAccessTests.shoot(client, fixture), caption: "seen")
            let operatorOutbox = try await client.execute(uri: "/api/status", method: .get, headers: AccessTests.headers(Self.operatorToken)) {
                object($0)["outbox"] as? [String: Any] ?? [:]
            }
            #expect(operatorOutbox["lastUploaded"] as? String == id && operatorOutbox["lastUploadedURL"] is String, "\(operatorOutbox)")
            let boothOutbox = try await client.execute(uri: "/api/status", method: .get, headers: AccessTests.headers(Self.boothToken)) {
                object($0)["outbox"] as? [String: Any] ?? [:]
            }
            #expect(boothOutbox["lastUploadedURL"] == nil && (boothOutbox["queued"] as? [String])?.isEmpty == true, "\(boothOutbox)")
            #expect(boothOutbox["lastUploaded"] as? String == id, "its guest's own post, while its link is shared: \(boothOutbox)")
            var (_, stream) = try await EventReader.open(client.responder, headers: AccessTests.headers(Self.boothToken), from: Self.address("127.0.0.1"))
            // The first event is the status: the stream's own, or a change (the upload's) announced
            // to every listener while it was being taken; the booth's view either way.
            let first = await stream.nextEvent()
            let firstStatus = (first?.data).flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
            #expect(firstStatus?["state"] is String && first?.data.contains("lastUploadedURL") == false, "\(first?.name ?? "-") \(first?.data ?? "")")
            var (_, operatorStream) = try await EventReader.open(client.responder, headers: AccessTests.headers(Self.operatorToken),
                                                                 from: Self.address("127.0.0.1"))
            #expect(await operatorStream.nextEvent()?.data.contains("lastUploadedURL") == true)
            // A change: each hears its own view.
            fixture.kiosk.events.announce("outbox")
            #expect(await stream.nextEvent()?.data.contains("lastUploadedURL") == false)
            #expect(await operatorStream.nextEvent()?.data.contains("lastUploadedURL") == true)
            hub.finishAll()
        }
    }

    // HEAD /s/<token> on kiosk.listen took the delete claim as GET does: a link checker's HEAD left
    // the guest's own phone without it.
    @Test func aHeadOfTheShareLinkTakesNoDeleteClaim() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let id = try await CrowdAccessTests.post(client, fixture, shot: try await CrowdAccessTests.shoot(client, fixture), caption: "mine")
            let token = try await CrowdAccessTests.token(client, of: id)
            try await client.execute(uri: "/s/\(token)", method: .head) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.setCookie] == nil, "a HEAD gets no claim: \(response.headers)")
            }
            try await client.execute(uri: "/s/\(token)", method: .get) { response in
                let set = SetCookie.only(in: response.headers)
                #expect(set?.name == "recorder_delete", "the guest's phone, the first GET, still gets it: \(response.headers)")
            }
        }
    }
}
