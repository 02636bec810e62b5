#if canImport(Glibc)
import Glibc
#endif

/// Who may open a device node, answered from the node itself.
package enum DevicePermissions {
    /// The name of the group that owns `path` (a camera's, a microphone's node), or nil when it
    /// cannot be read.
    package static func owningGroup(of path: String) -> String? {
        guard let status = try? Posix.status(of: path), let group = getgrgid(status.group), let name = group.pointee.gr_name else {
            return nil
        }
        return String(cString: name)
    }
}
