import FoundationEssentials

extension RecorderError: Encodable {
    /// How an edge words a failure, handed to an encoder (`userInfo[RecorderError.wordsKey]`), so
    /// a report's failures (`skipped`, `failed`) are written in that edge's words.
    package struct Words: Sendable {
        package let text: @Sendable (RecorderError) -> String

        package init(_ text: @escaping @Sendable (RecorderError) -> String) {
            self.text = text
        }
    }

    /// The `userInfo` key of an encoder's `Words`.
    package static let wordsKey = CodingUserInfoKey(rawValue: "recorder.failure-words")!

    /// A string: the edge's words when it handed them in, else "kind: case" (nothing below the
    /// edges words a failure).
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let words = encoder.userInfo[Self.wordsKey] as? Words {
            try container.encode(words.text(self))
        } else {
            try container.encode("\(kind.rawValue): \(caseName)")
        }
    }
}
