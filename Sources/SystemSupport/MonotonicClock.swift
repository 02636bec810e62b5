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

/// CPU time this process has used, on every thread (CLOCK_PROCESS_CPUTIME_ID): what a piece of
/// work costs the machine, beside how long it took.
package enum ProcessCPUClock {
    package static func nowMicroseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts)
        return Int64(ts.tv_sec) * 1_000_000 + Int64(ts.tv_nsec) / 1000
    }
}
