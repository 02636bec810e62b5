package import Settings
import SystemSupport

extension RecorderConfiguration {
    /// The event's name ("Anna & Ben's wedding"), for the guests' mail and the share page; empty
    /// when not set. The one place that knows which key holds it: `event.name` (the operator
    /// page's Event section), else the older `mail.event` (and a catalogue without `event.name`).
    package var eventName: String {
        let name = settings["event.name"] == nil ? "" : (text("event.name") ?? "").trimmed()
        return name.isEmpty ? (text("mail.event") ?? "").trimmed() : name
    }
}
