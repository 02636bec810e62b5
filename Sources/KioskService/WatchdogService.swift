import Dispatch
import FoundationEssentials
import Glibc
import Logging
import RecorderCore
import ServiceLifecycle

/// Speaks to systemd: READY=1 once the HTTP port is bound and the camera's state is known, then
/// WATCHDOG=1 every half `WatchdogSec`, but only while both the camera loop and the HTTP server
/// answer (the server is asked over a real connection), so a hung process gets restarted.
struct WatchdogService: Service {
    let kiosk: Kiosk
    let httpBound: Signal

    func run() async throws {
        let notifier = kiosk.notifier
        await httpBound.wait()
        await kiosk.cameraReady.wait()
        // The waits also end when the group is cancelled (the port could not be bound): no
        // "ready" then.
        if Task.isShuttingDownGracefully || Task.isCancelled { return }
        let state = await kiosk.manager.recordState
        notifier.ready(status: "listening on \(kiosk.settings.host):\(kiosk.settings.port); \(Kiosk.statusLine(state))")
        kiosk.logger.notice("ready: \(kiosk.settings.pageAddresses.joined(separator: " ")) (\(Kiosk.statusLine(state)))")
        guard let interval = notifier.watchdogInterval else {
            try? await gracefulShutdown()
            return
        }
        let probe = HTTPSelfProbe(host: kiosk.settings.probeHost, port: kiosk.settings.port)
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            let cameraAlive = kiosk.isCameraLoopAlive
            let httpAlive = await probe.answers(timeout: 2)
            if cameraAlive && httpAlive {
                notifier.watchdog()
            } else {
                kiosk.logger.error("watchdog withheld: camera loop \(cameraAlive ? "alive" : "stuck"), HTTP \(httpAlive ? "alive" : "not answering")")
            }
            try? await Task.sleep(for: interval)
        }
    }
}

/// A one-shot event for tasks to wait on (the HTTP port bound, the camera checked).
public final class Signal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    public init() {
        (stream, continuation) = AsyncStream<Void>.makeStream()
    }

    public func signal() { continuation.finish() }

    /// Returns once `signal()` was called (at once if it already was).
    public func wait() async {
        for await _ in stream {}
    }
}

/// Asks the kiosk's own HTTP server for `/healthz` over TCP, on a thread of its own: any HTTP
/// answer (even 503) proves the server's event loop runs.
struct HTTPSelfProbe: Sendable {
    let host: String
    let port: Int

    func answers(timeout: Double) async -> Bool {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: self.answersBlocking(timeout: timeout)) }
        }
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
