import SystemSupport

/// Free space where a shot is recorded (the workspace) and where its post waits (the outbox),
/// against what one more kiosk shot needs (`ShotRequest.bytesNeeded`: the recording and its
/// faststart copy at the configured bitrate, and some room to spare). Short of it, a guest's shot
/// would fail after they recorded it: the booth is out of service instead (`OutOfService`).
package struct DiskSpace: Sendable, Equatable {
    var workspace: String
    package var workspaceFree: Int64?
    var outbox: String
    package var outboxFree: Int64?
    /// One shot's bytes.
    var needed: Int64

    /// Reads both directories' free space (statvfs: call it on a helper thread).
    package static func measure(workspace: String, outbox: String, needed: Int64) -> DiskSpace {
        DiskSpace(workspace: workspace, workspaceFree: FileSystem.freeBytes(workspace), outbox: outbox,
                  outboxFree: FileSystem.freeBytes(outbox), needed: needed)
    }

    /// The directory short of room, its free bytes and what it needs there; nil when both have
    /// room. The workspace needs a whole shot; the outbox, which takes a shot by a link when it is
    /// on the same disk, half of one (its metadata, a poster, a copy when it is elsewhere).
    package var short: (path: String, free: Int64, needed: Int64)? {
        if let free = workspaceFree, free < needed { return (workspace, free, needed) }
        if let free = outboxFree, free < needed / 2 { return (outbox, free, needed / 2) }
        return nil
    }

}
