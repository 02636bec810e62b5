import Foundation

/// One request as the fault proxy logged it ("PUT /clips/videos/x.mp4?partNumber=1&uploadId=..."),
/// parsed: tests judge its method, path and query items, not the text of the line.
struct S3Request: CustomStringConvertible {
    let method: String
    /// Percent-decoded, bucket first: "/clips/videos/x.mp4".
    let path: String
    /// Each query item by name; an item with no value ("?uploads" or "?uploads=") is "".
    let query: [String: String]
    /// The line as logged, for failure messages.
    let line: String

    /// Parses a logged request line; nil when it is not one (no method, or a target that is no URL).
    init?(line: String) {
        let fields = line.split(separator: " ", maxSplits: 1)
        guard fields.count == 2, let components = URLComponents(string: String(fields[1])) else { return nil }
        method = String(fields[0])
        path = components.path
        var query: [String: String] = [:]
        for item in components.queryItems ?? [] { query[item.name] = item.value ?? "" }
        self.query = query
        self.line = line
    }

    /// Whether the query has item `name`, with or without a value.
    func hasQuery(_ name: String) -> Bool { query[name] != nil }

    var description: String { line }
}
