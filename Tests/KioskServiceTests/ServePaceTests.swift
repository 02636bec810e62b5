import Foundation
import NIOCore
import NIOEmbedded
import NIOHTTP1
import Testing
@testable import KioskHTTP
@testable import ShareServer

/// `recorder serve` paces each request as the kiosk does (issue 52: per-phone limits as the
/// kiosk's), each connection's `RequestPace` made as `recorder serve` makes it (`ServeDaemon`), on an
/// embedded connection whose event loop's clock the test moves: a phone its proxy (nginx, on this
/// machine's loopback, of `serve.proxies`) names in `X-Real-IP` is counted by its own address.
struct ServePaceTests {
    let fixture: ServeFixture
    let store: String
    let pace: @Sendable () -> RequestPace
    static let token = "Aq3xZr8Kp1Lw9Tn2Vb4HcJ"

    init() throws {
        store = NSTemporaryDirectory() + "recorder-serve-pace-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        fixture = try ServeFixture(store: store)
        pace = ServeDaemon(server: fixture.services).requestPace(routes: fixture.services.router().routes)
    }

    func remove() {
        fixture.remove()
        try? FileManager.default.removeItem(atPath: store)
    }

    /// A connection from `remote` to the share server's port, open.
    func connection(from remote: String) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel(handler: pace())
        channel.localAddress = try SocketAddress(ipAddress: "127.0.0.1", port: 8090)
        // (an embedded channel's peer is the address it "connects" to)
        try channel.connect(to: try SocketAddress(ipAddress: remote, port: 40_000)).wait()
        return channel
    }

    /// Sends a request's head (`X-Real-IP: phone` when given) announcing a body of `length` bytes;
    /// the status the pace answered it with at once, or nil when it passed it on.
    func ask(_ channel: EmbeddedChannel, _ method: HTTPMethod = .POST, _ uri: String = "/s/\(token)/delete", phone: String?, length: Int) throws -> UInt? {
        var head = HTTPRequestHead(version: .http1_1, method: method, uri: uri)
        head.headers.add(name: "Host", value: "videos.example.test")
        head.headers.add(name: "Content-Length", value: String(length))
        if let phone { head.headers.add(name: "X-Real-IP", value: phone) }
        try channel.writeInbound(HTTPServerRequestPart.head(head))
        guard case .head(let answer)? = try channel.readOutbound(as: HTTPServerResponsePart.self) else { return nil }
        return answer.status.code
    }

    /// Of one phone's bodies 4 are taken at once and the fifth refused (429, its connection closed),
    /// whichever of nginx's connections they came on; another phone's are still taken; the proxy's
    /// own requests (no phone named) are this machine's, never counted; and a client that is no
    /// proxy is counted as itself whatever phone it names.
    @Test func aPhoneItsProxyNamesSendsFourBodiesAtOnce() throws {
        defer { remove() }
        let phone = "192.0.2.7"
        let mine = try (0..<4).map { _ in try connection(from: "127.0.0.1") }
        for channel in mine { #expect(try ask(channel, phone: phone, length: 200) == nil && channel.isActive) }
        let fifth = try connection(from: "127.0.0.1")
        #expect(try ask(fifth, phone: phone, length: 200) == 429)
        #expect(!fifth.isActive)
        let other = try connection(from: "127.0.0.1")
        #expect(try ask(other, phone: "192.0.2.8", length: 200) == nil && other.isActive)
        let own = try (0..<6).map { _ in try connection(from: "127.0.0.1") }
        for channel in own { #expect(try ask(channel, phone: nil, length: 200) == nil && channel.isActive) }
        let claiming = try (0..<4).map { _ in try connection(from: "198.51.100.9") }
        for channel in claiming { #expect(try ask(channel, phone: phone, length: 200) == nil && channel.isActive, "not a proxy: its X-Real-IP ignored") }
        #expect(try ask(try connection(from: "198.51.100.9"), phone: "192.0.2.8", length: 200) == 429, "its own fifth")
        // A body that ended gives its place back: the phone's next is taken.
        try mine[0].writeInbound(HTTPServerRequestPart.end(nil))
        #expect(try ask(try connection(from: "127.0.0.1"), phone: phone, length: 200) == nil)
    }

    /// A body larger than its route takes is refused by its length at once (a guest's delete takes
    /// 256 bytes, a GET none); one that trickles in is cut once it falls behind the minimum rate.
    @Test func aTricklingBodyIsCutAndATooLargeOneRefusedAtOnce() throws {
        defer { remove() }
        let large = try connection(from: "127.0.0.1")
        #expect(try ask(large, phone: "192.0.2.7", length: 300) == 413)
        #expect(!large.isActive)
        let get = try connection(from: "127.0.0.1")
        #expect(try ask(get, .GET, "/s/\(Self.token)", phone: "192.0.2.7", length: 10) == 413)
        let slow = try connection(from: "127.0.0.1")
        #expect(try ask(slow, phone: "192.0.2.7", length: 200) == nil)
        try slow.writeInbound(HTTPServerRequestPart.body(ByteBuffer(string: "c")))
        slow.embeddedEventLoop.advanceTime(by: .seconds(2))
        #expect(slow.isActive, "within its grace")
        slow.embeddedEventLoop.advanceTime(by: .seconds(1))
        #expect(!slow.isActive, "a byte in 3 s: cut")
    }
}
