#if canImport(Glibc)
import Glibc
#endif

/// Who may open a device node, answered from the node itself.
package enum DevicePermissions {
    /// The name of the group that owns `path`, or nil when it cannot be read.
    package static func owningGroup(of path: String) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, let group = getgrgid(info.st_gid), let name = group.pointee.gr_name else {
            return nil
        }
        return String(cString: name)
    }
}
