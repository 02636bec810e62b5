import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SystemSupport

/// The systemd notification protocol (sd_notify(3)) without libsystemd: one datagram per message
/// to the AF_UNIX socket named by `$NOTIFY_SOCKET` (a path, or `@name` for the abstract namespace).
/// Without that variable every call does nothing, so the daemon runs the same by hand.
package struct SystemdNotifier: Sendable {
    /// Where messages go, or nil when not started by systemd with Type=notify.
    package let socketPath: String?
    /// Half of `$WATCHDOG_USEC` (systemd's advice), or nil when the watchdog is off or meant for another process.
    package let watchdogInterval: Duration?
    /// The unit's `WatchdogSec=` in microseconds, as systemd handed it over (`$WATCHDOG_USEC`).
    let watchdogMicroseconds: UInt64?

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        var interval: Duration?, microseconds: UInt64?
        if path != nil, let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 {
            let forUs = environment["WATCHDOG_PID"].map { Int32($0) == Posix.processID } ?? true
            if forUs { (interval, microseconds) = (.microseconds(Int64(usec / 2)), usec) }
        }
        watchdogInterval = interval
        watchdogMicroseconds = microseconds
    }

    /// The watchdog's time while the kiosk starts itself again (`KioskRestart`): as long as a start
    /// may take (the unit's TimeoutStartSec=60), and a margin.
    static let restartWatchdog: UInt64 = 90_000_000

    // READY and STOPPING wait a moment for room in the manager's queue; a status line or a
    // watchdog ping never waits: a newer one follows, and a kiosk must not stop answering because
    // the manager reads slowly (a full queue - 10 datagrams by default, net.unix.max_dgram_qlen -
    // blocked sendto, and with it the threads the HTTP server and the camera run on).
    /// READY, with the unit's own watchdog time again (a restart in place had lengthened it).
    package func ready(status: String) {
        send("READY=1\nSTATUS=\(Self.oneLine(status))" + (watchdogMicroseconds.map { "\nWATCHDOG_USEC=\($0)" } ?? ""), wait: true)
    }
    /// The kiosk starts itself again in place (the same pid): systemd shows it reloading until the
    /// new run's READY, and its watchdog waits as long as a start may take.
    package func reloading(status: String) {
        send("RELOADING=1\nSTATUS=\(Self.oneLine(status))" + (watchdogMicroseconds == nil ? "" : "\nWATCHDOG_USEC=\(Self.restartWatchdog)"), wait: true)
    }
    package func status(_ text: String) { send("STATUS=\(Self.oneLine(text))", wait: false) }
    package func watchdog() { send("WATCHDOG=1", wait: false) }
    package func stopping(status: String) { send("STOPPING=1\nSTATUS=\(Self.oneLine(status))", wait: true) }

    /// The longest a message that waits (READY, STOPPING) waits for room.
    static let longestWait = timeval(tv_sec: 2, tv_usec: 0)

    /// Sends one message; failures are ignored, as sd_notify's callers do (the service manager may
    /// be gone). `wait`: wait up to `longestWait` for room in a full queue; else drop the message.
    @discardableResult
    package func send(_ message: String, wait: Bool = false) -> Bool {
        guard let socketPath else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var timeout = Self.longestWait
        if wait { _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) }
        let flags = Int32(MSG_NOSIGNAL) | (wait ? 0 : Int32(MSG_DONTWAIT))
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(socketPath.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return false }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        // An abstract name's length is exact; a path's includes its terminating NUL.
        let length = MemoryLayout<sa_family_t>.size + bytes.count + (bytes.first == 0 ? 0 : 1)
        let payload = Array(message.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                payload.withUnsafeBytes { body in
                    sendto(fd, body.baseAddress, body.count, flags, socketAddress, socklen_t(length))
                }
            }
        }
        return sent == payload.count
    }

    /// STATUS= takes one line; newlines would start another assignment.
    static func oneLine(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 }.prefix(200))
    }
}
