import FoundationEssentials
import Glibc
internal import SystemSupport
package import Failures

/// The directories and names that follow from the settings and the environment.
extension RecorderConfiguration {
    // MARK: Resolved settings

    package var outboxDirectory: String {
        values["outbox"] ?? Self.home(environment, "XDG_STATE_HOME", ".local/state") + "/recorder/outbox"
    }

    /// The shot workspace: `workspace`, else `defaultWorkspace`.
    package var workspaceDirectory: String {
        values["workspace"].flatMap { $0.isEmpty ? nil : $0 } ?? Self.defaultWorkspace(environment: environment)
    }

    /// `$STATE_DIRECTORY/workspace` under systemd (`StateDirectory=`: on the disk, so the last
    /// shot and a recording under way survive a power cut, not only a restart), else
    /// `$XDG_RUNTIME_DIR/recorder`, or `<tmp>/recorder-<uid>` when there is no runtime directory.
    package static func defaultWorkspace(environment: [String: String]) -> String {
        if let state = environment["STATE_DIRECTORY"], state.hasPrefix("/") {
            // The first, when the unit lists several.
            return String(state.split(separator: ":").first ?? "") + "/workspace"
        }
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty { return runtime + "/recorder" }
        let tmp = environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        return "\(tmp)/recorder-\(Posix.userID)"
    }

    /// The video cache's directory: `cache.path`, else systemd's `CacheDirectory=`, else the
    /// user's cache directory.
    package var videoCacheDirectory: String {
        if let path = values["cache.path"] { return path }
        if let systemd = environment["CACHE_DIRECTORY"], systemd.hasPrefix("/") {
            // systemd's CacheDirectory= (the first, when it lists several).
            return String(systemd.split(separator: ":").first ?? "") + "/videos"
        }
        return Self.home(environment, "XDG_CACHE_HOME", ".cache") + "/recorder/videos"
    }

    /// Who makes the posts: `author_id` and `author_name`, else this machine's host name.
    package var author: (id: String, name: String) {
        var name = [CChar](repeating: 0, count: 256)
        gethostname(&name, name.count - 1)
        let host = String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return (values["author_id"] ?? host, values["author_name"] ?? values["author_id"] ?? host)
    }

    package var localStoreDirectory: String {
        values["local.path"] ?? Self.home(environment, "XDG_DATA_HOME", ".local/share") + "/recorder/store"
    }
}
