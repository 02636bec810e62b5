import Glibc

/// What a file or directory made in a place shared with a service takes from that place, so that
/// a command run beside the service (by root, or by a member of its group) never leaves it an
/// entry it cannot read or write. The booth's places are such: the package's service user and
/// group own its state and cache directories, mode 2770 (docs/kiosk.md, "The organiser's
/// commands"). `Posix.open` (creating) and `Posix.mkdir` apply it to what they make:
/// - made by root in a directory another user owns: that user and the directory's group own it,
///   as if the directory's owner had made it (`recorder outbox flush` run as root leaves the
///   outbox the service's, as `recorder kiosk --end-sessions` always left its sessions);
/// - made in a set-group-ID directory: its group may do what its owner may, whatever the umask
///   (as git's `core.sharedRepository = group`), and a directory keeps the bit, so its own
///   entries are shared too.
/// Anywhere else nothing changes: a private directory's entries stay as private as asked.
struct SharedDirectory {
    /// The directory's owner and group.
    let owner: UInt32
    let group: UInt32
    /// Whether it is set-group-ID: what is made in it takes its group, and shares with it.
    let setGroupID: Bool

    /// The directory `path` is made in, when it is shared; nil for a place of one's own (the
    /// usual case: one stat(2) of the parent, and nothing else happens).
    init?(containing path: String) {
        let parent = FilePaths.directory(of: path)
        guard let status = try? Posix.status(of: parent.isEmpty ? "." : parent), status.isDirectory else { return nil }
        let setGroupID = status.permissions & UInt32(S_ISGID) != 0
        guard setGroupID || (geteuid() == 0 && status.owner != 0) else { return nil }
        owner = status.owner
        group = status.group
        self.setGroupID = setGroupID
    }

    /// The mode to ask for: the group's bits as the owner's in a shared-group directory (the
    /// umask may still take some; `adopt` puts them back).
    func mode(asked mode: UInt32) -> UInt32 {
        setGroupID ? mode | (mode & 0o700) >> 3 : mode
    }

    /// Gives the entry just made (or opened to be made) the place's owner and its group's share.
    /// Best effort: an entry that cannot be changed (not ours, a file system without owners)
    /// stays as it was made, which is what happened before there was this.
    func adopt(_ status: FileStatus, chown: (UInt32, UInt32) -> Int32, chmod: (UInt32) -> Int32) {
        if geteuid() == 0, owner != 0, status.owner != owner || status.group != group {
            // (a failure leaves root's entry, readable by root alone as before)
            _ = chown(owner, group)
        }
        guard setGroupID, status.owner == geteuid() || geteuid() == 0 else { return }
        let shared = status.permissions & ~0o070 | (status.permissions & 0o700) >> 3
        // (a mode the group already has is left alone: the service, whose umask keeps the group's
        // bits, never calls chmod, which its seccomp filter refuses with a set-group-ID bit)
        if shared != status.permissions { _ = chmod(shared) }
    }
}

extension Posix {
    /// The descriptor `open` made (O_CREAT) in a shared directory: adopted as `SharedDirectory` says.
    static func adopt(_ fd: Int32, in shared: SharedDirectory) {
        guard let status = try? status(of: fd) else { return }
        shared.adopt(status, chown: { fchown(fd, uid_t($0), gid_t($1)) }, chmod: { fchmod(fd, mode_t($0)) })
    }

    /// The directory `mkdir` made in a shared directory: adopted as `SharedDirectory` says.
    static func adopt(directory path: String, in shared: SharedDirectory) {
        guard let status = try? status(of: path) else { return }
        shared.adopt(status, chown: { Glibc.chown(path, uid_t($0), gid_t($1)) }, chmod: { Glibc.chmod(path, mode_t($0)) })
    }
}
