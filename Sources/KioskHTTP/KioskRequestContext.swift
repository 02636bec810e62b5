package import Hummingbird
package import NIOCore
import HTTPTypes
import SystemSupport

/// The kiosk's request context: the client's address (for the per-client limits and the login
/// throttle) and who the request is, as `KioskGuard` found from its token.
package struct KioskRequestContext: RequestContext, RemoteAddressRequestContext {
    package var coreContext: CoreRequestContextStorage
    package let remoteAddress: SocketAddress?
    /// The connection the request came on: an answer written a chunk at a time waits for its
    /// socket (`SocketPace`).
    let connection: any Channel
    /// Set by `KioskGuard` before any route runs: nil when the request presented no valid token.
    package var identity: KioskIdentity?
    /// Set by `KioskGuard` when the request presented a token or session cookie that is no token
    /// of the kiosk's (a guess): the route that answers judges it (`/login` by the token in its
    /// body first: a right one wins whatever else came with it), nothing before.
    package var wrongCredentials: WrongCredentials?
    /// The request came on `kiosk.proxy_socket`, the listener of the proxy (nginx) alone: from a
    /// phone, which the proxy names in `X-Real-IP`. Nowhere else is that header believed.
    package let viaProxy: Bool
    /// The client as the limits count it: its IP address (an IPv6 one by its /64, which one
    /// machine usually holds whole), or "unknown". On the proxy's listener it is the phone the
    /// proxy names (`KioskGuard` sets it before any route runs), never this machine.
    package var client: ClientAddress

    package init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        connection = source.channel
        // (kiosk.listen is always HOST:PORT: a Unix socket's connection is the proxy's)
        viaProxy = source.channel.localAddress?.protocol == .unix
        client = viaProxy ? .proxy : ClientAddress(remoteAddress)
    }

    /// The header in which a proxy names the phone: on the kiosk's proxy socket, and on a share
    /// server from the proxies of `serve.proxies`; nowhere else is it believed.
    package static let realIP = HTTPField.Name("X-Real-IP")!

    /// Whether the browser reached the page over TLS: through the proxy's own listener, or a proxy
    /// on this machine's loopback, that says so (`X-Forwarded-Proto: https`, which the shipped nginx
    /// configuration sets itself); nobody else is believed.
    package func reachedOverTLS(_ request: Request) -> Bool {
        (viaProxy || ClientAddress(remoteAddress).isLoopback)
            && request.headers[HTTPField.Name("X-Forwarded-Proto")!]?.lowercased() == "https"
    }

    /// The pace of the request's connection, for an answer written a chunk at a time (`SocketPace`).
    package func socketPace() async -> SocketPace.Handle? {
        await SocketPace.handle(of: connection)
    }

    /// The booth's own screen: this machine (on kiosk.listen, not through the proxy), with a token.
    /// It has places of its own among the video answers and live mirrors, which no crowd takes.
    var isBoothScreen: Bool { client.isLoopback && identity != nil }
}

/// What a request presented that is no token of the kiosk's, and the throttle that counts it.
package struct WrongCredentials: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// `Authorization` with a token that is not the kiosk's (or not a bearer token at all).
        case token
        /// A session cookie the kiosk never made (no valid MAC).
        case forgedCookie
    }

    package var kind: Kind
    /// Where the guess is counted.
    package let throttle: LoginThrottle

    package init(_ kind: Kind, throttle: LoginThrottle) {
        self.kind = kind
        self.throttle = throttle
    }

    package static func == (a: WrongCredentials, b: WrongCredentials) -> Bool { a.kind == b.kind && a.throttle === b.throttle }
}

/// A valid token a request presented, and how it came.
package struct KioskIdentity: Sendable, Equatable {
    package var role: KioskRole
    package var via: Via
    /// The session it came with (`via == .cookie`): what an operator's action keeps alive.
    package var session: Session?

    package init(role: KioskRole, via: Via, session: Session? = nil) {
        self.role = role
        self.via = via
        self.session = session
    }

    /// A session cookie on the kiosk's list, and the list.
    package struct Session: Sendable, Equatable {
        let store: SessionStore
        let cookie: String

        package init(store: SessionStore, cookie: String) {
            self.store = store
            self.cookie = cookie
        }

        /// An operator's action with it: its idle time starts again.
        package func touch() async { await store.touch(cookie) }

        package static func == (a: Session, b: Session) -> Bool { a.store === b.store && a.cookie == b.cookie }
    }

    package enum Via: Sendable, Equatable {
        /// `Authorization: Bearer`: a program (curl, a monitor); no browser attaches it by itself.
        case bearer
        /// The session cookie the kiosk set at `/login`: a browser, which attaches it to requests
        /// other sites' pages make too, so such a POST must also show it comes from our page.
        case cookie
        /// No token is configured: the kiosk listens on loopback only, and whoever reaches it is
        /// this machine's own user.
        case loopbackOnly
    }
}

/// A client's address as the limits count it.
package struct ClientAddress: Hashable, Sendable, CustomStringConvertible {
    package let key: String
    /// The address itself, an IPv6 one whole (`key` counts it by its /64): the login throttle
    /// counts wrong tokens per address, and per /64 only beyond a budget of its own.
    package let address: String
    /// The address is this machine's own (127.0.0.0/8, ::1): the booth's screen.
    package let isLoopback: Bool

    /// A connection on the proxy's listener, before its request names the phone: one of many
    /// phones, so it counts toward the total of connections but no address's share.
    package static let proxy = ClientAddress(key: "proxy", address: "proxy", isLoopback: false)

    private init(key: String, address: String, isLoopback: Bool) {
        self.key = key
        self.address = address
        self.isLoopback = isLoopback
    }

    /// The phone the proxy names in `X-Real-IP` (an IPv4 or IPv6 address's text), counted as any
    /// other machine's address; `.proxy` when the header is missing or not an address. Never
    /// loopback: whatever the header says, it came through the proxy from the network.
    package init(forwarded text: String?) {
        guard let text, let address = try? SocketAddress(ipAddress: text.trimmed(), port: 0) else {
            self = .proxy
            return
        }
        let named = ClientAddress(address)
        self.init(key: named.key, address: named.address, isLoopback: false)
    }

    package init(_ address: SocketAddress?) {
        // (`ipAddress` is the address's numeric text; `host` would be the name it was made from, often empty)
        switch (address?.protocol, address?.ipAddress) {
        case (.inet?, let ip?):
            key = ip
            self.address = ip
            isLoopback = ip.hasPrefix("127.")
        case (.inet6?, let ip?):
            if ip.lowercased().hasPrefix("::ffff:") && ip.contains(".") {
                let mapped = String(ip.dropFirst(7))
                key = mapped
                self.address = mapped
                isLoopback = mapped.hasPrefix("127.")
            } else {
                // One machine gets a whole /64; counting per address would let it take 2^64 shares.
                key = Self.prefix64(ip) + "::/64"
                self.address = ip.lowercased()
                isLoopback = ip == "::1"
            }
        default:
            key = "unknown"
            self.address = "unknown"
            isLoopback = false
        }
    }

    package var description: String { key }

    // The limits count a client by its key (an IPv6 client by its /64), whatever its address.
    package static func == (a: ClientAddress, b: ClientAddress) -> Bool { a.key == b.key }
    package func hash(into hasher: inout Hasher) { hasher.combine(key) }

    /// The first four groups of an IPv6 address's text.
    static func prefix64(_ ip: String) -> String {
        var groups: [Substring] = []
        let halves = ip.split(separator: "::", maxSplits: 1, omittingEmptySubsequences: false)
        let head = halves.first.map { $0.split(separator: ":", omittingEmptySubsequences: true) } ?? []
        let tail = halves.count > 1 ? halves[1].split(separator: ":", omittingEmptySubsequences: true) : []
        groups = head
        if halves.count > 1 {
            groups += Array(repeating: "0", count: max(0, 8 - head.count - tail.count)) + tail
        }
        return groups.prefix(4).joined(separator: ":").lowercased()
    }
}
