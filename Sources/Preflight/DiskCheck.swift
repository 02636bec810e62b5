package import SystemSupport
package import PreflightValues

/// How many hours of recording the disks hold: free space where videos pile up (the outbox, and
/// the local store), at the configured bitrate. A place that cannot take one more shot, or less
/// than an hour, would stop the event; less than `warningBelowHours` is worth a look.
package enum DiskCheck {
    package static let errorBelowHours = DiskPlace.errorBelowHours
    package static let warningBelowHours = DiskPlace.warningBelowHours
    /// What a shot's video takes per second with constant quality (no `shoot.bitrate`): the
    /// estimate `ShotRequest.bytesNeeded` makes too.
    package static let assumedKbps = 4000

    /// Looks at the places (blocking: statvfs). `bitrateKbps`: `shoot.bitrate`, nil for constant
    /// quality; `shotBytes`: the room one shot needs while it is made.
    package static func look(workspace: String, outbox: String, localStore: String?, bitrateKbps: Int?, shotBytes: Int64) -> PreflightFinding {
        var places = [DiskPlace(role: .workspace, path: workspace, freeBytes: FileSystem.freeBytes(workspace), keepsVideos: false),
                      DiskPlace(role: .outbox, path: outbox, freeBytes: FileSystem.freeBytes(outbox), keepsVideos: true)]
        if let localStore {
            places.append(DiskPlace(role: .store, path: localStore, freeBytes: FileSystem.freeBytes(localStore), keepsVideos: true))
        }
        let kbps = bitrateKbps ?? assumedKbps
        // A recorded hour is one more copy where videos pile up (the outbox's goes once the store
        // has it): the fullest of those places decides.
        let bytesPerHour = Double(kbps) * 1000 / 8 * 3600
        let hours = places.filter(\.keepsVideos).compactMap(\.freeBytes).map { Double($0) / bytesPerHour }.min() ?? 0
        return .diskRoom(hoursLeft: (hours * 100).rounded(.down) / 100, bitrateKbps: kbps, constantQuality: bitrateKbps == nil,
                         shotBytes: shotBytes, places: places)
    }
}
