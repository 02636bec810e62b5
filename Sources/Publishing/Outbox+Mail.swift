#if canImport(Glibc)
import Glibc
#endif
import SystemSupport
import FoundationEssentials

extension Outbox {
    /// Whether a process that is still running is putting post `id` into the queue now (its
    /// `.incoming-<id>-<pid>` folder): a mail queued with it waits, and is not taken for one whose
    /// post never came.
    func isBeingQueued(id: String) -> Bool {
        let prefix = ".incoming-\(id)-"
        return DirectoryListing.namesIfReadable(queueDirectory).contains { name in
            guard name.hasPrefix(prefix), let pid = pid_t(name.dropFirst(prefix.count)) else { return false }
            return Self.isRunning(pid, since: nil)
        }
    }

    /// Whether process `pid` runs, and is the one that did something at `since` (a pid from before
    /// this boot, after a power cut, may belong to another process by now).
    static func isRunning(_ pid: Int32, since: Date?) -> Bool {
        guard Posix.processExists(pid) else { return false }
        guard let since else { return true }
        return since.timeIntervalSince1970 >= Double(Posix.bootTime())
    }
}
