import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import Settings
import StorageUpload
import SystemSupport
import Testing
import Fleet
import FleetValues
import Failures
@testable import KioskState
@testable import ShareServer
@testable import KioskHTTP

/// The fleet page on `recorder serve`: only with the operator's token (`serve.token_file`), and its
/// data only for whoever presents it (a bearer token, or the cookie `/login` sets, which any share
/// server with the same token accepts until it expires). Without a token there is no fleet page.
struct ServeFleetTests {
    /// A store with one booth's heartbeat, and a token file (mode 0600) holding `token`.
    static func place(token: String) throws -> (store: String, tokenFile: String, remove: @Sendable () -> Void) {
        let directory = NSTemporaryDirectory() + "recorder-serve-fleet-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/store", withIntermediateDirectories: true)
        var beat = try #require(HeartbeatTests.sample("booth-a"))
        beat.intervalSeconds = 60
        try HeartbeatStore(store: LocalDirectoryBackend(root: directory + "/store", createsRoot: true)).write(beat)
        let tokenFile = directory + "/serve-token"
        try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: tokenFile))
        try FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: tokenFile)
        return (directory + "/store", tokenFile, { try? FileManager.default.removeItem(atPath: directory) })
    }

    /// The login cookie's `name=value`, from a `/login` answer.
    static func cookie(_ response: TestResponse) -> String {
        String((response.headers[.setCookie] ?? "").split(separator: ";").first ?? "")
    }

    @Test func theFleetsDataNeedsTheOperatorsTokenOnTheShareServer() async throws {
        let place = try Self.place(token: AdminAPITests.token)
        defer { place.remove() }
        let clock = TestClock()
        let serve = try ServeFixture(store: place.store, more: ["serve.token_file": place.tokenFile], clock: clock)
        defer { serve.remove() }
        let routes = serve.services.router().routes
        #expect(routes.contains { $0.path == "/api/fleet" && $0.access == .operator }, "\(routes)")
        var cookie = ""
        try await serve.application().test(.router) { client in
            // The page itself is a shell with no data, as on the kiosk; its data needs the token.
            try await client.execute(uri: "/fleet", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/fleet/fleet.js", method: .get) { #expect($0.status == .ok) }
            try await client.execute(uri: "/api/fleet", method: .get) { response in
                #expect(response.status == .unauthorized)
                #expect(response.headers[.wwwAuthenticate] != nil)
            }
            try await client.execute(uri: "/api/fleet", method: .get, headers: [.authorization: "Bearer \(AccessTests.boothToken)"]) {
                #expect($0.status == .unauthorized)
            }
            let fleet = try await HeartbeatTests.fleet(client, headers: [.authorization: "Bearer \(AdminAPITests.token)"])
            #expect((fleet["booths"] as? [[String: Any]])?.map { $0["kiosk"] as? String } == ["booth-a"], "\(fleet)")
            // The page's login: a wrong token sets nothing; the right one the cookie the data opens with.
            try await client.execute(uri: "/login", method: .post, headers: jsonHeaders, body: body(#"{"token": "\#(AccessTests.boothToken)"}"#)) { response in
                #expect(response.status == .unauthorized && response.headers[.setCookie] == nil)
            }
            cookie = try await client.execute(uri: "/login", method: .post, headers: jsonHeaders, body: body(#"{"token": "\#(AdminAPITests.token)"}"#)) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.setCookie]?.contains("HttpOnly") == true)
                return Self.cookie(response)
            }
            #expect(cookie.hasPrefix(ServeOperator.cookieName + "="))
            _ = try await HeartbeatTests.fleet(client, headers: [.cookie: cookie])
            try await client.execute(uri: "/api/fleet", method: .get, headers: [.cookie: cookie + "0"]) { #expect($0.status == .unauthorized) }
            // Share links stay as open as before.
            try await client.execute(uri: "/healthz", method: .get) { #expect($0.status == .ok) }
        }
        // Another share server with the same token accepts the login (they keep nothing); one whose
        // token changed does not; nor does any once the login has expired.
        let twin = try ServeFixture(store: place.store, more: ["serve.token_file": place.tokenFile], clock: clock)
        defer { twin.remove() }
        try await twin.application().test(.router) { client in
            _ = try await HeartbeatTests.fleet(client, headers: [.cookie: cookie])
            clock.advance(by: .seconds(ServeOperator.lifetime + 1))
            try await client.execute(uri: "/api/fleet", method: .get, headers: [.cookie: cookie]) { #expect($0.status == .unauthorized) }
        }
        try Data((AccessTests.boothToken + "\n").utf8).write(to: URL(fileURLWithPath: place.tokenFile))
        let changed = try ServeFixture(store: place.store, more: ["serve.token_file": place.tokenFile], clock: TestClock())
        defer { changed.remove() }
        try await changed.application().test(.router) { client in
            try await client.execute(uri: "/api/fleet", method: .get, headers: [.cookie: cookie]) { #expect($0.status == .unauthorized) }
        }
    }

    /// No token: no fleet page, no login; the configuration's check says so only when the organiser
    /// named a token file and it is empty.
    @Test func withoutATokenThereIsNoFleetPage() async throws {
        let place = try Self.place(token: "")
        defer { place.remove() }
        let serve = try ServeFixture(store: place.store)
        defer { serve.remove() }
        #expect(serve.services.router().routes.allSatisfy { $0.access == .public })
        try await serve.application().test(.router) { client in
            for uri in ["/fleet", "/fleet/fleet.js", "/api/fleet"] {
                try await client.execute(uri: uri, method: .get, headers: [.authorization: "Bearer \(AdminAPITests.token)"]) {
                    #expect($0.status == .notFound, "\(uri)")
                }
            }
            try await client.execute(uri: "/login", method: .post, headers: jsonHeaders, body: body(#"{"token": "\#(AdminAPITests.token)"}"#)) {
                #expect($0.status == .notFound)
            }
        }
        let unset = try RecorderConfiguration(flags: ["local.path": place.store], configFile: "/dev/null", environment: ["HOME": "/nonexistent"],
                                              settings: .withKiosk)
        #expect(try ServeSettings.readToken(unset) == nil)
        #expect(!ConfigurationCheck.findings(unset).contains { $0.keys.contains("serve.token_file") })
        let empty = try RecorderConfiguration(flags: ["local.path": place.store, "serve.token_file": place.tokenFile], configFile: "/dev/null",
                                              environment: ["HOME": "/nonexistent"], settings: .withKiosk)
        #expect(throws: RecorderError.serve(.fleetTokenEmpty(path: place.tokenFile, origin: "the command line"))) { try ServeSettings(empty) }
        #expect(ConfigurationCheck.findings(empty).filter { $0.keys.contains("serve.token_file") }.map(\.error)
                == [.serve(.fleetTokenEmpty(path: place.tokenFile, origin: "the command line"))])
    }
}
