package import KioskHTTP

/// What one kiosk holds open at once, so that no client, and no crowd, can take what the booth needs:
/// connections (`ConnectionLimits`), video answers and live-mirror viewers (`ClientSlots`).
package struct KioskLimits: Sendable {
    package let connections: ConnectionLimits
    /// Posted videos being sent (gallery, attract loop, share pages): a phone's player opens two or
    /// three ranges at once; the total is what the store pool and the disk can feed. The booth's
    /// screen has 8 of its own (the review, the attract loop, the gallery), which a crowd of phones
    /// cannot take.
    package let videos: ClientSlots
    /// Live mirrors: each costs a JPEG encode per picture. The booth's page and the operator's
    /// preview on the booth need two, of their own.
    package let mirrors: ClientSlots
    /// Hosts' Download all: each archive being sent holds two pieces of the store's in memory.
    package let archives: ClientSlots
    /// Event streams (`/api/events`): each costs a status for every change. The booth's screen
    /// (its page and the operator's on it) and the operator's token have places of their own,
    /// which a crowd with the booth's token cannot take.
    package let events: ClientSlots

    package init(_ settings: KioskSettings) {
        connections = ConnectionLimits(total: settings.maxConnections, perClient: settings.maxConnectionsPerClient)
        videos = ClientSlots("videos", total: 256, perClient: 4, booth: 8)
        mirrors = ClientSlots("live mirrors", total: 6, perClient: 2, booth: 2)
        archives = ClientSlots("archives", total: 4, perClient: 1)
        events = ClientSlots("event streams", total: 16, perClient: 4, booth: 4, operator: 4)
    }
}
