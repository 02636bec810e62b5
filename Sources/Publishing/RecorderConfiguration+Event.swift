package import Settings
import SystemSupport

extension RecorderConfiguration {
    /// The event's name ("Anna & Ben's wedding"), for the guests' mail and the share page; empty
    /// when not set. The one place that knows which key holds it (`mail.event` today): a key of
    /// the event's own changes this line alone.
    package var eventName: String {
        (text("mail.event") ?? "").trimmed()
    }
}
