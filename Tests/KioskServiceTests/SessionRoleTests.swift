import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Synchronization
import Testing
import ShareServer
import SystemSupport
@testable import KioskService
@testable import KioskHTTP

/// Issue 50's attacks on the sessions, each tried as the attacker would and judged by status: the
/// booth's token logging the operator out by filling the list, an operator's session kept alive
/// overnight by the booth's page polling with its cookie, and a right token refused at `/login`
/// for what else its request carried. (The list filled over real sockets: Tests/security/sessions.py.)
@Suite(.serialized) struct SessionRoleTests {
    static let operatorToken = AccessTests.operatorToken
    static let boothToken = AccessTests.boothToken
    static let json: HTTPFields = [.contentType: "application/json", .origin: "http://localhost"]
    /// A session cookie as the kiosk makes them, with a MAC it never made.
    static let forged = "v1.operator.\(String(repeating: "0", count: 32)).1.99999999999.\(String(repeating: "0", count: 64))"

    /// A browser's cookies: what each `Set-Cookie` left, by name.
    final class Browser: Sendable {
        private let jar = Mutex<[String: String]>([:])

        /// Takes the answer's `Set-Cookie`s (Max-Age=0 forgets one).
        func take(_ response: TestResponse) {
            for header in response.headers[values: .setCookie] {
                guard let cookie = SetCookie(header) else { continue }
                jar.withLock { $0[cookie.name] = cookie.maxAge == 0 ? nil : cookie.value }
            }
        }

        var cookies: [String: String] { jar.withLock { $0 } }
        var header: HTTPFields { [.cookie: jar.withLock { $0.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }] }

        /// GET `uri` with this browser's cookies (and `more`): the status.
        func get(_ client: RouterTestClient<some HTTPResponder>, _ uri: String, _ more: HTTPFields = [:]) async throws -> HTTPResponse.Status {
            var headers = header
            headers.append(contentsOf: more)
            return try await client.execute(uri: uri, method: .get, headers: headers) { response in
                take(response)
                return response.status
            }
        }

        func login(_ client: RouterTestClient<some HTTPResponder>, _ token: String) async throws {
            var headers = json
            headers.append(contentsOf: header)
            try await client.execute(uri: "/login", method: .post, headers: headers, body: body(#"{"token": "\#(token)"}"#)) { response in
                #expect(response.status == .ok)
                take(response)
            }
        }
    }

    // Hole 2: 257 logins with the booth's token ended every other session, the operator's too
    // (one list of 256, the idlest going). Now each role has its places and ends only its own.
    @Test func theBoothsLoginsNeverEndTheOperatorsSession() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken, clock: TestClock())
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let operatorBrowser = Browser(), first = Browser()
            try await operatorBrowser.login(client, Self.operatorToken)
            try await first.login(client, Self.boothToken)
            var last: [Browser] = []
            for _ in 1...257 {
                let browser = Browser()
                try await browser.login(client, Self.boothToken)
                last = Array((last + [browser]).suffix(2))
            }
            #expect(try await operatorBrowser.get(client, "/api/admin/overview") == .ok, "the operator is still logged in")
            let sessions = try #require(fixture.kiosk.access.sessions)
            #expect(sessions.count == [.operator: 1, .booth: SessionStore.maximumSessions(.booth)])
            #expect(try await first.get(client, "/api/status") == .unauthorized, "the booth's oldest session ended")
            for browser in last { #expect(try await browser.get(client, "/api/status") == .ok, "the booth's newest two stay") }
            // The operator's logins beyond its places end only the operator's oldest.
            for _ in 1...SessionStore.maximumSessions(.operator) { try await Browser().login(client, Self.operatorToken) }
            #expect(try await operatorBrowser.get(client, "/api/admin/overview") == .unauthorized)
            #expect(sessions.count == [.operator: SessionStore.maximumSessions(.operator), .booth: SessionStore.maximumSessions(.booth)])
            for browser in last { #expect(try await browser.get(client, "/api/status") == .ok) }
        }
    }

    // Hole 3: the operator logged in on the booth's screen and walked away; the booth's page asked
    // /api/status every few seconds with the operator's cookie (it had replaced the booth's), and
    // each request started the 12 idle hours again: the operator's rights stayed on the screen.
    @Test func anOperatorOnTheBoothsScreenIsLoggedOutAfterTwelveHoursThatTheBoothsPagePolled() async throws {
        let clock = TestClock()
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken, clock: clock)
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            let screen = Browser()
            try await screen.login(client, Self.boothToken)
            try await screen.login(client, Self.operatorToken)
            #expect(screen.cookies.count == 2, "the operator's session is beside the booth's, not in its place: \(screen.cookies.keys)")
            // Overnight: the booth's page polls its status, and the operator's page, left open,
            // refreshes the overview by itself; nobody uses either.
            for hour in 1...13 {
                clock.advance(by: .seconds(3600))
                #expect(try await screen.get(client, "/api/status") == .ok)
                // (the refresh is the operator's page's: nobody uses it). After 13 hours the
                // operator's session has ended: the screen is the booth's, which may not (403).
                #expect(try await screen.get(client, "/api/admin/overview") == (hour <= 12 ? .ok : .forbidden), "after \(hour) h")
            }
            #expect(screen.cookies.keys.sorted() == [KioskCredentials.cookieName], "the ended session's cookie is forgotten: \(screen.cookies.keys)")
            #expect(try await screen.get(client, "/api/status") == .ok, "and the screen is the booth's again")

            // A person using the operator's page keeps the session: its requests say so.
            try await screen.login(client, Self.operatorToken)
            clock.advance(by: .seconds(SessionStore.operatorIdle - 60))
            #expect(try await screen.get(client, "/api/admin/overview", [GuardedRoutes.personHeader: "1"]) == .ok)
            clock.advance(by: .seconds(SessionStore.operatorIdle - 60))
            #expect(try await screen.get(client, "/api/admin/overview") == .ok, "23 h 58 min after the login, 11 h 59 min after the person")
            // The booth's page used by a guest (its requests marked too) is no operator's action.
            #expect(try await screen.get(client, "/api/status", [GuardedRoutes.personHeader: "1"]) == .ok)
            clock.advance(by: .seconds(120))
            let late = try await screen.get(client, "/api/admin/overview")
            #expect(late == .forbidden, "12 h 1 min after the person, the booth's screen again: \(late)")
        }
    }

    // Hardening: from an address already slowed, /login with the right operator's token got 429
    // when the request also carried a session cookie the kiosk could not verify, or an
    // Authorization: Basic header; and that 429 left the cookie in the browser.
    @Test func theRightTokenWinsLoginWhateverElseItsRequestCarries() async throws {
        let fixture = try KioskFixture(token: Self.operatorToken, boothToken: Self.boothToken,
                                       throttle: LoginThrottle(clock: TestClock(), hold: { _ in }))
        defer { fixture.remove() }
        await fixture.start()
        try await fixture.application().test(.router) { client in
            for attempt in 1...(LoginThrottle.freeFailures + 1) {
                try await client.execute(uri: "/api/status", method: .get, headers: AccessTests.headers("wrong-\(attempt)-Kp1Lw9Tn2Vb4Hc5Jd6Fs7")) { _ in }
            }
            // A forged cookie is a guess: while the address is slowed it gets 429, and is forgotten.
            try await client.execute(uri: "/api/status", method: .get, headers: [.cookie: "recorder_session=\(Self.forged)"]) { response in
                #expect(response.status == .tooManyRequests)
                let cleared = SetCookie.only(in: response.headers)
                #expect(cleared?.name == KioskCredentials.cookieName && cleared?.maxAge == 0, "the 429 clears the cookie it cannot verify: \(response.headers)")
            }
            for extra in [[HTTPField(name: .cookie, value: "recorder_session=\(Self.forged)")],
                          [HTTPField(name: .authorization, value: "Basic b3BlcmF0b3I6d3Jvbmc=")],
                          [HTTPField(name: .authorization, value: "Bearer wrong-Kp1Lw9Tn2Vb4Hc5Jd6Fs7"),
                           HTTPField(name: .cookie, value: "recorder_operator=\(Self.forged)")]] {
                var headers = Self.json
                headers.append(contentsOf: extra)
                try await client.execute(uri: "/login", method: .post, headers: headers, body: body(#"{"token": "\#(Self.operatorToken)"}"#)) { response in
                    #expect(response.status == .ok, "the right token with \(extra): \(response.status)")
                    let set = response.headers[values: .setCookie].compactMap(SetCookie.init)
                    #expect(set.contains { $0.name == KioskCredentials.operatorCookieName && $0.maxAge ?? 0 > 0 }, "\(set)")
                    if extra.contains(where: { $0.name == .cookie && $0.value.hasPrefix(KioskCredentials.cookieName + "=") }) {
                        #expect(set.contains { $0.name == KioskCredentials.cookieName && $0.maxAge == 0 }, "the forged cookie is forgotten: \(set)")
                    }
                }
            }
            // A wrong token in the body is one guess, whatever came with it (the right ones forgot
            // the address's earlier guesses: 401), and the cookie it cannot verify is forgotten.
            var headers = Self.json
            headers[.cookie] = "recorder_session=\(Self.forged)"
            try await client.execute(uri: "/login", method: .post, headers: headers, body: body(#"{"token": "wrong-Kp1Lw9Tn2Vb4Hc5Jd6Fs7"}"#)) { response in
                #expect(response.status == .unauthorized)
                #expect(SetCookie.only(in: response.headers)?.maxAge == 0, "\(response.headers)")
            }
        }
    }
}
