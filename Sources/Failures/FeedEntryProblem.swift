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

    private enum Field: String, CodingKey { case `case`, key, limit, id }

    /// Its case and data, as a failure's data is (`{"case": "metadataMissing", "key": ...}`): the
    /// shape `recorder feed --json` has always given.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Field.self)
        switch self {
        case .metadataMissing(let key):
            try container.encode("metadataMissing", forKey: .case)
            try container.encode(key, forKey: .key)
        case .metadataTooLarge(let limit):
            try container.encode("metadataTooLarge", forKey: .case)
            try container.encode(limit, forKey: .limit)
        case .metadataNotAPost:
            try container.encode("metadataNotAPost", forKey: .case)
        case .metadataNamesAnotherPost(let id):
            try container.encode("metadataNamesAnotherPost", forKey: .case)
            try container.encode(id, forKey: .id)
        }
    }
}
