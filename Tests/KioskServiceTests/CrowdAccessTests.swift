import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import Settings
@testable import Shooting
@testable import Publishing
@testable import Library
import StorageUpload
import Synchronization
import Testing
import ShareServer
import SystemSupport
@testable import KioskService
@testable import KioskHTTP
@testable import KioskState

/// Issue 40's attacks by a crowd of phones, each tried as the attacker would and judged by status:
/// the booth's token reaching another guest's post, a forwarded link deleting it, a session that
/// outlives its logout, the throttle locking the right token out, and a post that is not tied to
/// its shot.
@Suite(.serialized) struct CrowdAccessTests {
    static let operatorToken = AccessTests.operatorToken
    static let boothToken = AccessTests.boothToken
    static let booth = AccessTests.headers(boothToken)
    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    /// Records a shot with the booth's token and waits for it: its id.
    static func shoot(_ client: RouterTestClient<some HTTPResponder>, _ fixture: KioskFixture, headers: HTTPFields = booth,
                      body shootBody: String = "{}") async throws -> String {
        try await client.execute(uri: "/api/shoot", method: .post, headers: headers, body: body(shootBody)) { response in
            #expect(response.status == .accepted, "shoot: \(response.status) \(String(buffer: response.body))")
        }
        try await fixture.waitFor("idle")
        return try #require(fixture.kiosk.manager.workspace.currentShot()).id
    }

    /// Posts shot `shot` with the booth's token and waits until it is in the store: the post's id.
    static func post(_ client: RouterTestClient<some HTTPResponder>, _ fixture: KioskFixture, shot: String, caption: String) async throws -> String {
        let id = try await client.execute(uri: "/api/post", method: .post, headers: booth,
                                          body: body(#"{"id": "\#(shot)", "caption": "\#(caption)"}"#)) { response in
            #expect(response.status == .accepted, "post: \(response.status) \(String(buffer: response.body))")
            return object(response)["id"] as? String ?? ""
        }
        try await fixture.waitForUpload(id)
        return id
    }

    /// The share token in a post's link.
    static func token(_ client: RouterTestClient<some HTTPResponder>, of id: String) async throws -> String {
        try await client.execute(uri: "/api/posts/\(id)/share", method: .get, headers: AccessTests.headers(operatorToken)) { response in
            #expect(response.status == .ok)
            return String((object(response)["shareURL"] as? String ?? "").split(separator: "/").last ?? "")
        }
    }

    // Item 3: after guest B posted, the booth's token no longer reaches guest A's link (it did: 200).
    @Test func theBoothsTokenReachesOnlyItsCurrentGuestsPost() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let a = try await Self.post(client, fixture, shot: try await Self.shoot(client, fixture), caption: "guest A")
            try await client.execute(uri: "/api/posts/\(a)/share", method: .get, headers: Self.booth) { #expect($0.status == .ok, "A's own thank-you") }
            let b = try await Self.post(client, fixture, shot: try await Self.shoot(client, fixture), caption: "guest B")
            for path in ["share", "qr.svg"] {
                try await client.execute(uri: "/api/posts/\(a)/\(path)", method: .get, headers: Self.booth) { response in
                    #expect(response.status == .notFound, "A's \(path) with the booth's token after B posted: \(response.status)")
                }
            }
            try await client.execute(uri: "/api/posts/\(b)/share", method: .get, headers: Self.booth) { #expect($0.status == .ok, "B's own thank-you") }
            // The operator still reaches every post.
            try await client.execute(uri: "/api/posts/\(a)/share", method: .get, headers: AccessTests.headers(Self.operatorToken)) { #expect($0.status == .ok) }
        }
    }

    // Item 4: a link views; deleting needs the secret the guest's own phone got when it opened the
    // link first, within minutes of the post. A forwarded link deleted the post before.
    @Test func aForwardedLinkViewsAndCannotDeleteTheGuestsOwnPhoneCan() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken)
        defer { fixture.remove() }
        await fixture.start()
        let store = fixture.directory + "/store"
        try await fixture.application().test(.router) { client in
            let id = try await Self.post(client, fixture, shot: try await Self.shoot(client, fixture), caption: "mine")
            let token = try await Self.token(client, of: id)
            // The guest's phone opens the link from the thank-you screen's QR code: it gets the
            // secret as an HttpOnly cookie for this link's path alone, and the page offers the delete.
            let cookie = try await client.execute(uri: "/s/\(token)", method: .get) { response in
                #expect(response.status == .ok)
                let set = try #require(SetCookie.only(in: response.headers), "\(response.headers)")
                #expect(set.httpOnly && set.path == "/s/\(token)", "\(set)")
                #expect(HTMLForm.all(in: String(buffer: response.body)) == [HTMLForm(method: "post", action: "/s/\(token)/delete")])
                return set.pair
            }
            #expect(cookie.hasPrefix("recorder_delete=") && cookie.count > 30, "\(cookie)")
            // Forwarded to a friend: it plays, and offers no delete.
            try await client.execute(uri: "/s/\(token)", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.setCookie] == nil, "a second phone gets no secret")
                #expect(!String(buffer: response.body).contains("/s/\(token)/delete"))
            }
            try await client.execute(uri: "/s/\(token)/video.mp4", method: .get) { #expect($0.status == .ok) }
            // The friend's delete (the link alone, or with a made-up secret) deletes nothing.
            for headers: HTTPFields in [Self.form, Self.form + [.cookie: "recorder_delete=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"]] {
                try await client.execute(uri: "/s/\(token)/delete", method: .post, headers: headers, body: body("confirm=delete")) { response in
                    #expect(response.status == .forbidden, "a forwarded link's delete: \(response.status)")
                }
            }
            #expect(FileManager.default.fileExists(atPath: "\(store)/videos/\(id).mp4"), "the post is still there")
            // The guest's own phone deletes it.
            try await client.execute(uri: "/s/\(token)/delete", method: .post, headers: Self.form + [.cookie: cookie], body: body("confirm=delete")) { response in
                #expect(response.status == .ok)
            }
            #expect(!FileManager.default.fileExists(atPath: "\(store)/videos/\(id).mp4"))
            try await client.execute(uri: "/s/\(token)", method: .get) { #expect($0.status == .notFound) }
        }
    }

    // Item 5: the cookie is a session the server can end (it was a fixed HMAC of the token).
    @Test func logoutEndsTheSessionOnTheServer() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            func login() async throws -> String {
                try await client.execute(uri: "/login", method: .post, headers: [.contentType: "application/json", .origin: "http://localhost"],
                                         body: body(#"{"token": "\#(Self.operatorToken)"}"#)) { response in
                    #expect(response.status == .ok)
                    return String((response.headers[.setCookie] ?? "").split(separator: ";")[0])
                }
            }
            let cookie = try await login(), other = try await login()
            #expect(cookie != other, "each login is a session of its own")
            let headers: HTTPFields = [.cookie: cookie, .contentType: "application/json", .origin: "http://localhost"]
            try await client.execute(uri: "/api/admin/overview", method: .get, headers: headers) { #expect($0.status == .ok) }
            try await client.execute(uri: "/logout", method: .post, headers: headers, body: body("{}")) { #expect($0.status == .ok) }
            // The browser was told to forget it; one that kept it (or whoever copied it) gets nothing.
            try await client.execute(uri: "/api/admin/overview", method: .get, headers: headers) { response in
                #expect(response.status == .unauthorized, "the logged-out cookie opened the overview: \(response.status)")
            }
            try await client.execute(uri: "/api/admin/overview", method: .get, headers: [.cookie: other]) { #expect($0.status == .ok, "the other session stays") }
        }
    }

    /// The holds a throttle asked for, in seconds (the test's throttle holds nothing back itself).
    final class Holds: Sendable {
        let seconds = Mutex<[Int64]>([])
        func hold(_ duration: Duration) { seconds.withLock { $0.append(duration.components.seconds) } }
    }

    // Item 6: after six wrong tokens from its address, the operator's right one got 429 (so did /login).
    @Test func theRightTokenIsNeverRefused() async throws {
        let holds = Holds()
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken,
                                       throttle: LoginThrottle(clock: TestClock(), hold: { holds.hold($0) }))
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            for attempt in 1...(LoginThrottle.freeFailures + 1) {
                try await client.execute(uri: "/api/status", method: .get, headers: AccessTests.headers("wrong-\(attempt)-Kp1Lw9Tn2Vb4Hc5Jd6Fs7")) { response in
                    #expect(response.status == (attempt <= LoginThrottle.freeFailures ? .unauthorized : .tooManyRequests), "wrong token \(attempt): \(response.status)")
                }
            }
            try await client.execute(uri: "/api/status", method: .get, headers: AccessTests.headers("wrong-again-Kp1Lw9Tn2Vb4Hc5Jd6Fs7")) { #expect($0.status == .tooManyRequests) }
            // Slowed: each wrong token past the free ones was answered late, twice as late each time.
            #expect(holds.seconds.withLock { $0 } == [2, 4], "\(holds.seconds.withLock { $0 })")
            try await client.execute(uri: "/api/admin/overview", method: .get, headers: AccessTests.headers(Self.operatorToken)) { response in
                #expect(response.status == .ok, "the operator's right token while its address is slowed: \(response.status)")
            }
            try await client.execute(uri: "/login", method: .post, headers: [.contentType: "application/json", .origin: "http://localhost"],
                                     body: body(#"{"token": "\#(Self.operatorToken)"}"#)) { response in
                #expect(response.status == .ok, "/login with the right token while its address is slowed: \(response.status)")
                #expect(response.headers[.setCookie] != nil)
            }
            try await client.execute(uri: "/api/status", method: .get, headers: Self.booth) { #expect($0.status == .ok, "and the booth's") }
            #expect(holds.seconds.withLock { $0 }.count == 2, "a right token is never held back")
        }
    }

    @Test func aPhoneChangingItsAddressIsSlowedWithItsWholeSlash64() {
        let throttle = LoginThrottle()
        let start = ContinuousClock.now
        func address(_ text: String) -> ClientAddress { ClientAddress(try? SocketAddress(ipAddress: text, port: 1)) }
        // A new address for every guess, all in one /64: free until the /64's own budget is spent.
        for n in 1...LoginThrottle.freeFailuresPerNetwork {
            #expect(throttle.failed(address("2001:db8:5:6::\(String(n, radix: 16))"), now: start) == nil, "guess \(n)")
        }
        #expect(throttle.failed(address("2001:db8:5:6::ffff"), now: start) != nil)
        #expect(throttle.wait(address("2001:db8:5:6::abc"), now: start) != nil, "the /64 is slowed")
        #expect(throttle.wait(address("2001:db8:5:7::1"), now: start) == nil, "another /64 is not")
        #expect(throttle.wait(address("10.1.1.1"), now: start) == nil)
    }

    @Test func oneIPv6AddressDoesNotSlowItsNeighboursAndAFullTableKeepsItsBlocks() {
        let throttle = LoginThrottle()
        let start = ContinuousClock.now
        func address(_ text: String) -> ClientAddress { ClientAddress(try? SocketAddress(ipAddress: text, port: 1)) }
        // A guest's phone guessing from 2001:db8:1:2::10 slows that address, not the operator's
        // laptop on the same Wi-Fi (the same /64).
        let guest = address("2001:db8:1:2::10"), laptop = address("2001:db8:1:2:abcd::7")
        for _ in 0...LoginThrottle.freeFailures { throttle.failed(guest, now: start) }
        #expect(throttle.wait(guest, now: start) != nil)
        #expect(throttle.wait(laptop, now: start) == nil, "a neighbour in the /64 is slowed by another address's guesses")
        // A full table (4,096 addresses, each slowed) forgets nobody who is slowed now: not even the
        // quietest, slowed a minute before the others (12 wrong tokens: for 128 s).
        let table = LoginThrottle()
        let first = address("10.0.0.1")
        for _ in 0..<12 { table.failed(first, now: start - .seconds(60)) }
        for n in 1..<(LoginThrottle.maximumClients + 100) {
            let client = address("10.\(1 + n / 65_536).\(n / 256 % 256).\(n % 256)")
            for _ in 0...LoginThrottle.freeFailures { table.failed(client, now: start) }
        }
        #expect(table.wait(first, now: start) != nil, "the quietest address's block was evicted by later ones")
    }

    // Item 8: a post names its shot; a late Post never publishes the next guest's.
    @Test func aPostNamesItsShot() async throws {
        let fixture = try KioskFixture()
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let first = try await Self.shoot(client, fixture, headers: jsonHeaders)
            let second = try await Self.shoot(client, fixture, headers: jsonHeaders)
            #expect(first != second)
            try await client.execute(uri: "/api/post", method: .post, headers: jsonHeaders, body: body(#"{"caption": "no id"}"#)) { response in
                #expect(response.status == .badRequest, "a post without the shot's id: \(response.status)")
            }
            // The first guest's Post, arriving late: the current shot is the second guest's.
            try await client.execute(uri: "/api/post", method: .post, headers: jsonHeaders, body: body(#"{"id": "\#(first)", "caption": "late"}"#)) { response in
                #expect(response.status == .conflict, "a post naming another shot: \(response.status)")
                #expect(object(response)["kind"] as? String == "notCurrentShot")
            }
            #expect(fixture.kiosk.manager.workspace.currentShot()?.id == second)
            try await client.execute(uri: "/api/post", method: .post, headers: jsonHeaders, body: body(#"{"id": "\#(second)", "caption": "mine"}"#)) { response in
                #expect(response.status == .accepted)
            }
        }
    }

    // Item 8: guest A's yes does not let the booth's button record the next person while A's
    // review is still open (it did: the press started a shot under A's yes).
    @Test func theButtonNeverStartsAShotUnderAnotherGuestsYes() async throws {
        let (fixture, file) = try ConsentTests.fixture()
        defer { fixture.remove(); try? FileManager.default.removeItem(atPath: file) }
        await fixture.start()
        let digest = try #require(fixture.kiosk.settings.consent?.sha256)
        let button = fixture.followButton()
        defer { fixture.kiosk.button.stop(); button.cancel() }
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/api/consent", method: .post, headers: jsonHeaders,
                                     body: body(#"{"answer": "yes", "textSha256": "\#(digest)"}"#)) { #expect($0.status == .ok) }
            let shot = try await Self.shoot(client, fixture, headers: jsonHeaders)
            let held = try #require(fixture.kiosk.guests.consentStatus)
            #expect(held.given && held.retakesOnly, "A's yes holds, for A's retake only: \(held)")
            // A's review is on screen; somebody presses the booth's button.
            let presses = fixture.kiosk.guests.consentStatus?.buttonPresses ?? 0
            fixture.kiosk.button.press()
            let end = ContinuousClock.now + .seconds(60)
            while fixture.kiosk.guests.consentStatus?.buttonPresses == presses, await fixture.kiosk.manager.recordState == .idle, ContinuousClock.now < end {
                try await Task.sleep(for: .milliseconds(20))
            }
            try await fixture.waitFor("idle")
            #expect(fixture.kiosk.manager.workspace.currentShot()?.id == shot, "the button recorded a shot under A's yes")
            #expect(fixture.kiosk.guests.consentStatus?.buttonPresses == presses + 1, "the press goes to the page, which asks the new guest")
            // A plain shoot is refused too; A's own Retake (naming the shot A reviews) is not.
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body("{}")) { response in
                #expect(response.status == .forbidden)
                #expect(object(response)["guestKey"] as? String == "consentFirst")
            }
            let retake = try await Self.shoot(client, fixture, headers: jsonHeaders, body: #"{"retake": "\#(shot)"}"#)
            #expect(retake != shot)
            // A retake naming a shot that is not the one under review starts nothing.
            try await client.execute(uri: "/api/shoot", method: .post, headers: jsonHeaders, body: body(#"{"retake": "\#(shot)"}"#)) { response in
                #expect(response.status == .forbidden)
            }
        }
    }
}

extension CrowdAccessTests {
    static func login(_ client: RouterTestClient<some HTTPResponder>, _ token: String) async throws -> String {
        try await client.execute(uri: "/login", method: .post, headers: [.contentType: "application/json", .origin: "http://localhost"],
                                 body: body(#"{"token": "\#(token)"}"#)) { response in
            #expect(response.status == .ok)
            return String((response.headers[.setCookie] ?? "").split(separator: ";")[0])
        }
    }

    static func status(_ client: RouterTestClient<some HTTPResponder>, _ uri: String, cookie: String) async throws -> HTTPResponse.Status {
        try await client.execute(uri: uri, method: .get, headers: [.cookie: cookie]) { $0.status }
    }

    // Item 5: an operator who logged in on the booth's screen and walked away is logged out after
    // 12 idle hours; the booth's own screen stays logged in.
    @Test func anOperatorSessionEndsAfterTwelveIdleHoursTheBoothsDoesNot() async throws {
        let clock = TestClock()
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken, clock: clock)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let operatorCookie = try await Self.login(client, Self.operatorToken), boothCookie = try await Self.login(client, Self.boothToken)
            clock.advance(by: .seconds(SessionStore.operatorIdle - 60))
            #expect(try await Self.status(client, "/api/admin/overview", cookie: operatorCookie) == .ok, "11 h 59 min idle")
            // Used just now, by a person: the idle time starts again.
            try await client.execute(uri: "/api/admin/overview", method: .get, headers: [.cookie: operatorCookie, GuardedRoutes.personHeader: "1"]) {
                #expect($0.status == .ok)
            }
            clock.advance(by: .seconds(SessionStore.operatorIdle - 60))
            #expect(try await Self.status(client, "/api/admin/overview", cookie: operatorCookie) == .ok)
            clock.advance(by: .seconds(SessionStore.operatorIdle + 1))
            try await client.execute(uri: "/api/admin/overview", method: .get, headers: [.cookie: operatorCookie]) { response in
                #expect(response.status == .unauthorized, "12 h idle: \(response.status)")
                let cleared = SetCookie.only(in: response.headers)
                #expect(cleared?.name == "recorder_operator" && cleared?.maxAge == 0, "the browser is told to forget it: \(response.headers)")
            }
            #expect(try await Self.status(client, "/api/status", cookie: boothCookie) == .ok, "the booth's screen stays logged in")
            // An ended session is no wrong guess: nothing of the address was counted.
            #expect(fixture.kiosk.access.throttle.wait(ClientAddress(nil)) == nil)
        }
    }

    // Item 5: a new token ends the sessions made with the old one; one command ends them all.
    @Test func changingATokenOrOneCommandEndsTheSessions() async throws {
        let clock = TestClock()
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken, clock: clock)
        defer { fixture.remove() }
        await fixture.start()
        let directory = fixture.kiosk.settings.stateDirectory
        try await fixture.application().test(.router) { client in
            let first = try await Self.login(client, Self.operatorToken), booth = try await Self.login(client, Self.boothToken)
            let mode = try FileManager.default.attributesOfItem(atPath: directory + "/" + SessionStore.fileName)[.posixPermissions] as? Int
            #expect(mode == 0o600, "the session key is the kiosk's alone: mode \(String(mode ?? 0, radix: 8))")
            #expect(!(try String(contentsOfFile: directory + "/" + SessionStore.fileName, encoding: .utf8)).contains(Self.operatorToken))
            // The kiosk started again with another operator's token (as after `kiosk.token_file` changed).
            let restarted = try SessionStore(directory: directory, tokens: [.operator: "Zq8+Lm2/Pk7Wd4Rt6Yh1Nc3Vb5Xs9Jf0", .booth: Self.boothToken], clock: clock,
                                            authenticate: MessageAuthentication.sha256)
            #expect(await restarted.check(String(first.dropFirst("recorder_operator=".count))) == .ended)
            #expect(await restarted.check(String(booth.dropFirst("recorder_session=".count))) == .valid(.booth))

            let second = try await Self.login(client, Self.operatorToken)
            #expect(try await Self.status(client, "/api/admin/overview", cookie: second) == .ok)
            // `recorder kiosk --end-sessions`, while this kiosk runs.
            let process = Process()
            process.executableURL = URL(fileURLWithPath: try KioskProcessTests.binary())
            process.arguments = ["kiosk", "--end-sessions"]
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": fixture.directory, "RECORDER_KIOSK_STATE_DIR": directory]
            let out = Pipe()
            process.standardOutput = out
            try process.run()
            process.waitUntilExit()
            let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            #expect(process.terminationStatus == 0 && said.contains("ended 2 sessions"), "\(process.terminationStatus): \(said)")
            // The running kiosk looks at the file at most once a second.
            clock.advance(by: .seconds(2))
            for cookie in [second, booth] {
                try await client.execute(uri: "/api/status", method: .get, headers: [.cookie: cookie]) { response in
                    #expect(response.status == .unauthorized, "after --end-sessions: \(response.status)")
                }
            }
            #expect(fixture.kiosk.access.throttle.wait(ClientAddress(nil)) == nil, "the ended sessions were no guesses")
            // And a new login works at once.
            let third = try await Self.login(client, Self.operatorToken)
            #expect(try await Self.status(client, "/api/admin/overview", cookie: third) == .ok)
        }
    }

    // Items 3 and 4: the booth shows a guest's link only while their thank-you is up, and only a
    // phone that opens it then may delete.
    @Test func theBoothsLinkAndTheDeleteClaimLastOnlyWhileTheThankYouIsUp() async throws {
        let clock = TestClock()
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken, clock: clock)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let a = try await Self.post(client, fixture, shot: try await Self.shoot(client, fixture), caption: "A")
            try await client.execute(uri: "/api/posts/\(a)/share", method: .get, headers: Self.booth) { #expect($0.status == .ok) }
            clock.advance(by: GuestFlow.shareLifetime + .seconds(1))
            try await client.execute(uri: "/api/posts/\(a)/qr.svg", method: .get, headers: Self.booth) { response in
                #expect(response.status == .notFound, "minutes after the post: \(response.status)")
            }
            // Nobody opened A's link in time: the first phone now views, and may not delete.
            let token = try await Self.token(client, of: a)
            try await client.execute(uri: "/s/\(token)", method: .get) { response in
                #expect(response.status == .ok && response.headers[.setCookie] == nil)
                let page = String(buffer: response.body)
                #expect(!page.contains("/s/\(token)/delete") && page.contains("erase-elsewhere"))
            }
            // The next guest begins (a shot asked for) before B's post: A's link leaves the screen at once.
            let b = try await Self.post(client, fixture, shot: try await Self.shoot(client, fixture), caption: "B")
            try await client.execute(uri: "/api/posts/\(b)/share", method: .get, headers: Self.booth) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/shoot", method: .post, headers: Self.booth, body: body("{}")) { #expect($0.status == .accepted) }
            try await fixture.waitFor("idle")
            try await client.execute(uri: "/api/posts/\(b)/share", method: .get, headers: Self.booth) { #expect($0.status == .notFound) }
        }
    }

    // Item 4: with TLS in front (the share base is https), the link the QR code carries is https.
    @Test func withTLSTheShareLinkIsHttps() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken,
                                       more: ["share.base_url": "https://booth.test/s/{token}"])
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let id = try await Self.post(client, fixture, shot: try await Self.shoot(client, fixture), caption: "tls")
            try await client.execute(uri: "/api/posts/\(id)/share", method: .get, headers: Self.booth) { response in
                #expect((object(response)["shareURL"] as? String)?.hasPrefix("https://booth.test/s/") == true, "\(object(response))")
            }
        }
    }
}

func + (lhs: HTTPFields, rhs: HTTPFields) -> HTTPFields {
    var fields = lhs
    fields.append(contentsOf: rhs)
    return fields
}
