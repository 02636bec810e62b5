import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// The systemd notification protocol (sd_notify(3)) without libsystemd: one datagram per message
/// to the AF_UNIX socket named by `$NOTIFY_SOCKET` (a path, or `@name` for the abstract namespace).
/// Without that variable every call does nothing, so the daemon runs the same by hand.
package struct SystemdNotifier: Sendable {
    /// Where messages go, or nil when not started by systemd with Type=notify.
    package let socketPath: String?
    /// Half of `$WATCHDOG_USEC` (systemd's advice), or nil when the watchdog is off or meant for another process.
    package let watchdogInterval: Duration?

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
        socketPath = path
        var interval: Duration?
        if path != nil, let text = environment["WATCHDOG_USEC"], let usec = UInt64(text), usec > 0 {
            let forUs = environment["WATCHDOG_PID"].map { Int32($0) == getpid() } ?? true
            if forUs { interval = .microseconds(Int64(usec / 2)) }
        }
        watchdogInterval = interval
    }

    package func ready(status: String) { send("READY=1\nSTATUS=\(Self.oneLine(status))") }
    package func status(_ text: String) { send("STATUS=\(Self.oneLine(text))") }
    package func watchdog() { send("WATCHDOG=1") }
    package func stopping(status: String) { send("STOPPING=1\nSTATUS=\(Self.oneLine(status))") }

    /// Sends one message; failures are ignored, as sd_notify's callers do (the service manager may be gone).
    @discardableResult
    package func send(_ message: String) -> Bool {
        guard let socketPath else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
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
                    sendto(fd, body.baseAddress, body.count, Int32(MSG_NOSIGNAL), socketAddress, socklen_t(length))
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
