internal import CProcess

/// Memory the process freed but glibc still holds. glibc keeps freed chunks in its arenas (one
/// per thread that allocates, up to eight per core) for reuse, and gives pages back only from the
/// top of a heap: after a crowd of connections is gone, the kiosk's resident memory stayed at its
/// peak (260 stalled readers of a share video gone: still +26 MiB; `malloc_trim` brought it to +3).
package enum FreedMemory {
    /// Gives the pages of every free chunk in every arena back to the system (glibc's
    /// `malloc_trim(0)`): a walk of the arenas under their locks, a few milliseconds, so it runs on
    /// a blocking thread, and only after many allocations were freed. True when any page went back.
    @discardableResult
    package static func giveBack() -> Bool {
        cprocess_malloc_trim() == 1
    }
}
