package import Settings
package import Failures
import Publishing
import SystemSupport

/// `recorder serve`'s own settings (`serve.*`), read from the configuration every command reads:
/// where it listens, its pages' language, how many connections it keeps, and which proxies may name
/// the phone. The store, the cache and the share links are the core's (`store`, `cache.*`, `share.*`).
package struct ServeSettings: Sendable {
    package static let defaultListen = "127.0.0.1:8090"

    package var host: String
    package var port: Int
    /// The pages' language when the browser asks for none of theirs.
    package var language: String
    package var maxConnections: Int
    package var maxConnectionsPerClient: Int
    /// The proxies in front (their addresses) whose `X-Real-IP` names the phone.
    package var proxies: Set<String>
    /// The event's name, which the share page's title names (`RecorderConfiguration.eventName`); empty: none.
    package var event: String
    /// The operator's token (`serve.token_file`), which the fleet page's data needs; nil: the
    /// share server serves no fleet page at all.
    package var token: String?

    package init(_ configuration: RecorderConfiguration) throws(RecorderError) {
        let listen = configuration.text("serve.listen").flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultListen
        guard let (host, port) = RecorderConfiguration.parseListen(listen) else {
            throw .configuration(configuration.origin("serve.listen"), .badValue(key: "serve.listen", value: listen, rule: .listen))
        }
        (self.host, self.port) = (host, port)
        language = configuration.text("serve.language") ?? "en"
        maxConnections = Int(try configuration.number("serve.max_connections"))
        maxConnectionsPerClient = Int(try configuration.number("serve.max_connections_per_client"))
        proxies = Set((configuration.text("serve.proxies") ?? "").split(separator: ",").map { String($0).trimmed().lowercased() }.filter { !$0.isEmpty })
        event = configuration.eventName
        token = try Self.readToken(configuration)
    }

    /// The operator's token (`serve.token_file`, or `serve.token`), refused when its file is
    /// others' to read, cannot be read or holds a weak token, as the kiosk's; nil when none is set.
    /// An empty file is none, and an error only when the organiser named it (the unit's own
    /// credential, empty as the package makes it, means "no fleet page" and says nothing).
    package static func readToken(_ configuration: RecorderConfiguration) throws(RecorderError) -> String? {
        switch TokenReading.read(configuration, key: "serve.token", fileKey: "serve.token_file") {
        case .none:
            if let file = configuration.text("serve.token_file"), !file.isEmpty, !configuration.isPackageDefault("serve.token_file") {
                throw .serve(.fleetTokenEmpty(path: file, origin: configuration.origin("serve.token_file")))
            }
            return nil
        case .readableByOthers(let file, let mode):
            throw .kiosk(.tokenFileShared(role: "operator", path: file, mode: mode))
        case .unreadable(let file):
            throw .kiosk(.tokenFileUnreadable(role: "operator", path: file))
        case .token(let token, let origin):
            if let weakness = TokenStrength.weakness(token) { throw .kiosk(.weakToken(role: "operator", origin: origin, weakness)) }
            return token
        }
    }

    /// `host:port` as a person writes it (`[::1]:8090` for IPv6).
    package var address: String { "\(host.contains(":") ? "[\(host)]" : host):\(port)" }
}

extension Setting {
    /// The share server's settings (`serve.*`); it reads the core's too (the store, the cache, sharing).
    package static let serve: [Setting] = [
        Setting("serve.listen", .listen, default: ServeSettings.defaultListen,
                "address:port the share server (recorder serve) listens on ([::1]:PORT for IPv6), behind the reverse proxy that has the public name's certificate (the shipped nginx-recorder-serve.conf)"),
        Setting("serve.language", .choice(["en", "de"]), default: "en",
                "the share server's pages' language when the browser asks for none of them (Accept-Language)"),
        Setting("serve.max_connections", .number(16...100_000, integer: true), default: "4096",
                "connections the share server keeps open at once from other machines"),
        Setting("serve.max_connections_per_client", .number(4...1000, integer: true), default: "64",
                "connections one address may keep open at once with the share server"),
        Setting("serve.proxies", default: "127.0.0.1,::1",
                "the reverse proxies in front of the share server (addresses, comma-separated) whose X-Real-IP names the phone, so that each phone's limits count the phone and not the proxy; anybody else's X-Real-IP is ignored"),
        Setting("serve.token_file", credential: "serve-token",
                "file holding the operator's token for the share server's fleet page (/fleet: every booth's heartbeat in the store, and its data at /api/fleet); empty or absent: recorder serve serves no fleet page; its owner's alone (mode 0600), or root's and its group's (0640), unless systemd hands it over (LoadCredential=serve-token in recorder-serve.service)"),
        Setting("serve.token", .token, "the share server's operator token itself (prefer serve.token_file)"),
    ]
}
