import ServiceLifecycle
import SystemSupport
import KioskHTTP

/// Runs the event stream's one publisher for the life of the service group, and keeps idle
/// streams open (a comment line every `keepAlive`, so proxies and browsers keep them and dead
/// clients are found). It is shut down after the camera (the group stops its services in
/// reverse), so what the camera announced while stopping still reaches the clients; then their
/// streams end and the HTTP server can close.
struct EventService: Service {
    let events: EventStream
    let status: StatusReporter
    let clock: any RecorderClock
    var keepAlive: Duration = .seconds(15)

    func run() async throws {
        let events = self.events, status = self.status, clock = self.clock, keepAlive = self.keepAlive
        await withDiscardingTaskGroup { group in
            group.addTask { await events.publish(status: { await status.status() }, boothView: { status.boothView($0) }) }
            // The keep-alives end the moment a graceful shutdown begins (their sleep is cancelled).
            await cancelWhenGracefulShutdown {
                while !Task.isCancelled {
                    do { try await clock.sleep(for: keepAlive) } catch { return }
                    events.hub.keepAlive()
                }
            }
            events.end()
        }
        events.hub.finishAll()
    }
}
