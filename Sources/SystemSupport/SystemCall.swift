import Glibc

/// System calls with errno captured where they fail (as swift-nio's `syscall` does): a failure is
/// thrown with errno as it was right after the call, never read later from the global.
package enum SystemCall {
    /// Runs `body` (a call that returns -1 and sets errno on failure), again while it fails with
    /// EINTR; returns its result, or throws the errno of the failure.
    @discardableResult
    package static func run<T: FixedWidthInteger>(_ body: () -> T) throws(Descriptors.Errno) -> T {
        while true {
            let result = body()
            guard result == -1 else { return result }
            let code = errno
            if code != EINTR { throw Descriptors.Errno(code) }
        }
    }
}
