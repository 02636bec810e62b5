/// `posted.json` in a shot's folder: the shot went to the outbox as post `id`.
package struct PostedMarker: Codable {
    package static let fileName = "posted.json"

    package var id: String
    package var outboxItem: String
    package var queuedAt: String

    package init(id: String, outboxItem: String, queuedAt: String) {
        self.id = id
        self.outboxItem = outboxItem
        self.queuedAt = queuedAt
    }
}
