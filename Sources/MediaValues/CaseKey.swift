// The key of the enums written out by hand in the shape Swift's synthesized Codable gives an enum
// with data (`{"case": {"field": value}}`): ShotNote, ShotFault, AudioStop.

/// A key by its name: every case's and every field's.
package struct CaseKey: CodingKey {
    package let stringValue: String
    package init(_ name: String) { stringValue = name }
    package init?(stringValue: String) { self.stringValue = stringValue }
    package var intValue: Int? { nil }
    package init?(intValue: Int) { nil }

    /// The one case an enum's object names, and its fields.
    package static func single(_ decoder: any Decoder, _ what: String) throws -> (String, KeyedDecodingContainer<CaseKey>) {
        let outer = try decoder.container(keyedBy: CaseKey.self)
        guard outer.allKeys.count == 1, let key = outer.allKeys.first else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "a \(what) is an object with one key, its case"))
        }
        return (key.stringValue, try outer.nestedContainer(keyedBy: CaseKey.self, forKey: key))
    }
}

extension KeyedDecodingContainer<CaseKey> {
    /// The field `name`.
    package func value<T: Decodable>(_ name: String) throws -> T { try decode(T.self, forKey: CaseKey(name)) }
}
