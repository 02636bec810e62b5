import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Preflight
import Synchronization
import Testing
@testable import KioskService
@testable import Settings
@testable import KioskState
import KioskWords
import PreflightValues

/// `GET /api/admin/preflight`: the operator page's checks, run inside the kiosk.
struct PreflightAPITests {
    static let operatorToken = "Xk3q9Lw2ZtR8vB0aYcN1pE4sHfJ6uDmqab7Tz0Pq"
    static let boothToken = "Qm2Z8xT4bN7cR1vL5kH9pW3sD6fJ0gYaE8uI2oPw"

    static func headers(_ token: String) -> HTTPFields { [.authorization: "Bearer \(token)"] }

    /// Only the operator's token runs it; with it, every check comes back, errors first, each with
    /// its data and words: here the kiosk's own camera (`auto` finds none on this machine, so the
    /// kiosk is on its test pattern: an error), its store's round trip, and share links that point
    /// at the kiosk's loopback address (an error naming kiosk.listen, and share.base_url in the fix).
    @Test func theOperatorRunsTheChecksOfThisKiosk() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken, more: ["kiosk.device": "auto", "audio.device": "none"])
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/admin/preflight", method: .get) { response in
                #expect(response.status == .unauthorized)
            }
            try await client.execute(uri: "/api/admin/preflight", method: .get, headers: Self.headers(Self.boothToken)) { response in
                #expect(response.status == .forbidden)
            }
            try await client.execute(uri: "/api/admin/preflight", method: .get, headers: Self.headers(Self.operatorToken)) { response in
                #expect(response.status == .ok)
                let answer = object(response)
                let checks = try #require(answer["checks"] as? [[String: Any]])
                #expect(Set(checks.compactMap { $0["id"] as? String }) == Set(PreflightCheck.ID.allCases.map(\.rawValue)))
                func check(_ id: String) -> (status: String, finding: String, data: [String: Any], fix: String?) {
                    let c = checks.first { $0["id"] as? String == id } ?? [:]
                    let finding = (c["finding"] as? [String: Any]) ?? [:]
                    return (c["status"] as? String ?? "", finding.keys.first ?? "", finding.values.first as? [String: Any] ?? [:], c["fix"] as? String)
                }
                #expect(answer["ready"] as? Bool == false)
                let camera = check("camera")
                #expect(camera.status == "error" && camera.finding == "noCamera" && camera.data["setting"] as? String == "kiosk.device", "\(camera)")
                #expect(check("microphone").finding == "soundOff")
                #expect(check("configuration").finding == "configurationAccepted")
                #expect(check("service").finding == "serviceIsThis" && check("service").data["pid"] as? Int == Int(getpid()))
                #expect(check("store").status == "ok" && check("store").finding == "storeRoundTrip")
                #expect(check("tokens").status == "ok", "\(check("tokens"))")
                let share = check("share-links")
                #expect(share.status == "error" && share.finding == "shareUnreachable" && share.data["setting"] as? String == "kiosk.listen", "\(share)")
                // Its fix is the finding's, for its data (the words: PreflightWordingTests).
                let unreachable = PreflightFinding.shareUnreachable(url: share.data["url"] as? String ?? "", host: share.data["host"] as? String ?? "", setting: "kiosk.listen")
                #expect(share.data["host"] as? String == "127.0.0.1" && share.fix != nil && share.fix == PreflightWording.words(PreflightCheck(.shareLinks, unreachable)).fix, "\(share)")
                let statuses = checks.compactMap { $0["status"] as? String }
                let rank = ["error": 0, "warning": 1, "ok": 2, "skipped": 3]
                #expect(statuses.map { rank[$0]! } == statuses.map { rank[$0]! }.sorted(), "errors first: \(statuses)")
                #expect(answer["errors"] as? Int == statuses.count { $0 == "error" })
                #expect(checks.allSatisfy { !($0["what"] as? String ?? "").isEmpty && $0["title"] != nil && $0["milliseconds"] != nil })
            }
        }
    }

    /// With share.base_url on the guests' network the same kiosk's share links are ok.
    @Test func aShareBaseOnTheGuestsNetworkIsOk() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken,
                                       more: ["share.base_url": "http://192.168.1.20/s/{token}", "audio.device": "none"])
        defer { fixture.remove() }
        await fixture.start()
        let report = await PreflightService.live(settings: fixture.kiosk.settings, configuration: fixture.kiosk.configuration,
                                                 manager: fixture.kiosk.manager, trigger: nil).run()
        #expect(report[.shareLinks]?.finding == .shareTemplate(url: "http://192.168.1.20/s/{token}", host: "192.168.1.20"))
        #expect(report[.camera]?.finding == .testPattern(setting: "kiosk.device", value: "testsrc"))
    }

    /// Asked again while a run is under way, the page gets that run's answer: the checks (a store's
    /// round trip, a microphone's 3 s) are not run twice at once.
    @Test func oneRunAtATime() async throws {
        let runs = Atomic<Int>(0)
        let release = AsyncStream<Void>.makeStream()
        let service = PreflightService {
            runs.add(1, ordering: .relaxed)
            return [PreflightProbe(.clock, deadline: .seconds(600)) { _ in
                for await _ in release.stream { break }
                return .noTimeService(now: "2026-11-27T00:00:00Z")
            }]
        }
        async let first = service.run()
        async let second = service.run()
        // Both asked before the one run ends (it waits for `release`).
        let end = ContinuousClock.now + .seconds(60)
        while service.waiting < 2 && ContinuousClock.now < end { try await Task.sleep(for: .milliseconds(5)) }
        #expect(service.waiting == 2)
        release.continuation.yield()
        let (a, b) = await (first, second)
        #expect(a == b && a[.clock]?.finding == .noTimeService(now: "2026-11-27T00:00:00Z"))
        #expect(runs.load(ordering: .relaxed) == 1)
        release.continuation.finish()
        // A later ask runs again.
        _ = await service.run()
        #expect(runs.load(ordering: .relaxed) == 2)
    }
}
