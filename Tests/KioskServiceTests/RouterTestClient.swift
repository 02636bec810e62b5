import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import Synchronization

// These tests send their requests straight to the kiosk's router, as HummingbirdTesting's router
// mode does, and never its live mode. HummingbirdTesting also brings that live mode's client
// into the build: AsyncHTTPClient, SwiftNIO SSL with BoringSSL's 400 C files, HTTP/2, SOCKS and
// swift-configuration, about a third of what `swift build --build-tests` compiled. This file is
// the router mode alone, on Hummingbird's public API, with the same names, so the tests read as
// before.

/// How `ApplicationProtocol.test` runs the application: straight through its router, no server.
enum TestingSetup {
    case router
}

/// A response as the router produced it, its body collected whole.
struct TestResponse: Sendable {
    let head: HTTPResponse
    var status: HTTPResponse.Status { head.status }
    var headers: HTTPFields { head.headerFields }
    let body: ByteBuffer
    let trailerHeaders: HTTPFields?
}

/// Sends requests to an application's responder in this process, each with a request context
/// made as the server makes one (on a testing channel: no remote address).
struct RouterTestClient<Responder: HTTPResponder>: Sendable where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    let responder: Responder
    let logger: Logger

    /// Sends one request and hands its response to `check`, returning what that returns.
    @discardableResult
    func execute<Value>(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
                        check: (TestResponse) async throws -> Value = { $0 }) async throws -> Value {
        var headers = headers
        if let body { headers[.contentLength] = String(body.readableBytes) }
        let request = Request(head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
                              body: RequestBody(buffer: body ?? ByteBuffer()))
        let context = Responder.Context(source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            // What HummingbirdTesting's router mode answers for an error that escapes the router.
            response = Response(status: .internalServerError)
        }
        let parts = CollectedBody.Parts()
        try await response.body.write(CollectedBody(parts: parts))
        return try await check(TestResponse(head: response.head, body: parts.body.withLock { $0 }, trailerHeaders: parts.trailers.withLock { $0 }))
    }
}

/// Collects a response body's writes (the writer is consumed by the body; the parts outlive it).
private struct CollectedBody: ResponseBodyWriter {
    final class Parts: Sendable {
        let body = Mutex(ByteBuffer())
        let trailers = Mutex<HTTPFields?>(nil)
    }
    let parts: Parts

    func write(_ buffer: ByteBuffer) async throws {
        parts.body.withLock { _ = $0.writeImmutableBuffer(buffer) }
    }

    func finish(_ trailingHeaders: HTTPFields?) async throws {
        parts.trailers.withLock { $0 = trailingHeaders }
    }
}

extension ApplicationProtocol {
    /// Runs `test` with a client that sends requests straight to this application's router.
    /// The application's processes that run before its server starts run first; an application
    /// with services of its own is refused (nothing here would run them).
    func test<Value>(_ setup: TestingSetup, _ test: (RouterTestClient<Responder>) async throws -> Value) async throws -> Value {
        precondition(services.isEmpty, "RouterTestClient does not run an application's services")
        for process in processesRunBeforeServerStart {
            try await process()
        }
        return try await test(RouterTestClient(responder: try await responder, logger: logger))
    }
}
