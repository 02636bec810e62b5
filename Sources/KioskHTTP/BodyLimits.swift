/// The largest request body each public route takes, by its method and path as the route table
/// has them (`:name` for a parameter): a login or a guest's delete is a few hundred bytes, and a
/// route that reads no body takes none. `RequestPace` refuses a larger body before any of it is
/// read; any other path gets `HTTPAnswer.maximumBody` (its route checks its own limit once it has
/// judged the caller, and a 404 comes after the body, which is timed as every body is).
package struct BodyLimits: Sendable {
    /// One route's limit.
    package struct Entry: Sendable, Equatable {
        package var method: String
        package var path: String
        package var bytes: Int

        package init(method: String, path: String, bytes: Int) {
            self.method = method
            self.path = path
            self.bytes = bytes
        }
    }

    private let entries: [(method: String, parts: [Substring], bytes: Int)]

    package init(_ entries: [Entry]) {
        self.entries = entries.map { ($0.method, $0.path.split(separator: "/"), $0.bytes) }
    }

    /// The limit for a request line's `method` and `target` (as sent: a query, an absolute form,
    /// doubled slashes are allowed; a spelling that names no route gets the default, and the
    /// route that answers it checks its own limit again).
    package func limit(method: String, target: String) -> Int {
        var path = Substring(target)
        if let scheme = path.firstRange(of: "://") {
            path = path[scheme.upperBound...].drop { $0 != "/" }
        }
        path = path.prefix { $0 != "?" && $0 != "#" }
        let asked = path.split(separator: "/")
        // HEAD is GET without a body.
        let method = method == "HEAD" ? "GET" : method
        let matching = entries.filter { entry in
            entry.method == method && entry.parts.count == asked.count
                && zip(entry.parts, asked).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
        }
        // (a literal segment wins over a parameter: /api/admin/overview over /api/admin/:id)
        let best = matching.max { $0.parts.count(where: { $0.hasPrefix(":") }) > $1.parts.count(where: { $0.hasPrefix(":") }) }
        return best?.bytes ?? HTTPAnswer.maximumBody
    }
}
