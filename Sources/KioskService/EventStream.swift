import Synchronization
package import KioskHTTP
package import KioskState

/// What the pages hear of the kiosk's changes: each change is announced by its kind, and sent in
/// order, with the status as it is when sent, to every `/api/events` client (`EventHub`): a client
/// never gets an older status after a newer one.
package final class EventStream: Sendable {
    package let hub = EventHub()
    private let announcements = Announcements()

    package init() {}

    /// Something changed (`state`, `shot`, `posted`, `outbox`, `consent`, `service`...).
    package func announce(_ kind: String) {
        announcements.call(kind)
    }

    /// Sends every announced change to the clients with `status()` as it is then (the booth's
    /// token's clients its `boothView`), one after another, until `end()` (or the task is cancelled).
    package func publish(status: @escaping @Sendable () async -> KioskStatus,
                         boothView: @escaping @Sendable (KioskStatus) -> KioskStatus) async {
        let hub = self.hub
        await announcements.forEach { kind in
            let status = await status()
            hub.publish(kind, value: status, boothValue: boothView(status))
        }
    }

    /// Lets `publish` send what was announced so far, then return.
    package func end() {
        announcements.finish()
    }
}
