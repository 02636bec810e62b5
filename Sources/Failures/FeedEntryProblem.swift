/// Why a post's feed entry (`FeedEntry.Problem`) is incomplete: its metadata document is missing or damaged. In JSON,
/// its case and data: `{"case": "metadataMissing", "key": "posts/K7Q2.json"}`.
package enum FeedEntryProblem: Sendable, Equatable, Encodable {
    /// The store has no metadata document at `key`.
    case metadataMissing(key: String)
    /// The document is larger than `limit` bytes: not a post's metadata.
    case metadataTooLarge(limit: Int)
    /// The document is not a post's metadata JSON.
    case metadataNotAPost
    /// The document is another post's (`id`).
    case metadataNamesAnotherPost(id: String)

    package func encode(to encoder: any Encoder) throws {
        try CaseData(reflecting: self).encode(to: encoder)
    }
}
