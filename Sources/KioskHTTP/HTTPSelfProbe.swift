import FoundationEssentials
import Glibc
import Logging
import SystemSupport
import ServiceLifecycle

/// Asks the kiosk's own HTTP server for `/healthz` over TCP, on a thread of its own: any HTTP
/// answer (even 503) proves the server's event loop runs.
package struct HTTPSelfProbe: Sendable {
    let host: String
    let port: Int

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// The probe's own thread: a blocking connect and read, never on Swift's cooperative pool, and
    /// not queued behind the shared pool's work (a slow store fetch must not read as a hung server).
    private static let work = BlockingWork(name: "recorder-probe", threads: 1)

    package func answers(timeout: Double) async -> Bool {
        await Self.work.run { self.answersBlocking(timeout: timeout) }
    }

    func answersBlocking(timeout: Double) -> Bool {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else { return false }
        defer { freeaddrinfo(list) }
        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - Double(Int(timeout))) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else { return false }
        let request = Array("GET /healthz HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\n\r\n".utf8)
        guard send(fd, request, request.count, Int32(MSG_NOSIGNAL)) == request.count else { return false }
        var buffer = [UInt8](repeating: 0, count: 16)
        let n = recv(fd, &buffer, buffer.count, 0)
        return n >= 12 && buffer.starts(with: Array("HTTP/1.1 ".utf8))
    }
}
