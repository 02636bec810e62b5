#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC, the clock V4L2 stamps buffers with.
package enum MonotonicClock {
    package static func nowMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
