import Foundation

/// One event of a `text/event-stream` text, parsed (the HTML standard's field rules, less
/// `retry:`): tests judge its name and data, not the text.
struct ServerSentEvent {
    let id: String?
    /// `event:`'s value; "message" when the block names none.
    let name: String
    /// The `data:` lines, joined with "\n".
    let data: String

    /// The events of `text`, in order: each block ends at a blank line; comment lines (":") and a
    /// block with neither a name nor data (a comment block, or an unfinished one) are no event.
    static func parse(_ text: String) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        var rest = Substring(text)
        while let end = rest.range(of: "\n\n") {
            var id: String?, name: String?, data: [String] = []
            for line in rest[..<end.lowerBound].split(separator: "\n") where !line.hasPrefix(":") {
                let field = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                var value = field.count == 2 ? field[1] : ""
                if value.hasPrefix(" ") { value = value.dropFirst() }
                switch field[0] {
                case "id": id = String(value)
                case "event": name = String(value)
                case "data": data.append(String(value))
                default: break
                }
            }
            if name != nil || !data.isEmpty { events.append(ServerSentEvent(id: id, name: name ?? "message", data: data.joined(separator: "\n"))) }
            rest = rest[end.upperBound...]
        }
        return events
    }

    /// `data` as a JSON object; nil when it is not one.
    var json: [String: Any]? {
        try? JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any]
    }
}
