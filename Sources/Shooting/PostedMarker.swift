/// `posted.json` in a shot's folder: the shot went to the outbox as post `id`.
package struct PostedMarker: Codable {
    package static let fileName = "posted.json"

    package var id: String
    package var outboxItem: String
    package var queuedAt: String
    /// When the post was deleted (by the operator, or the guest from their phone): the shot stays
    /// posted (it is not posted again by mistake), and says its post is gone.
    package var deletedAt: String?

    package init(id: String, outboxItem: String, queuedAt: String, deletedAt: String? = nil) {
        self.id = id
        self.outboxItem = outboxItem
        self.queuedAt = queuedAt
        self.deletedAt = deletedAt
    }
}
