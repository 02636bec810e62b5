/// An optional that is written as `null` when absent, where the synthesized encoder would leave
/// the key out, and read back as nil when the key is missing (files from older versions).
///
/// For what readers should see was considered and is absent: a silent shot's `"audio": null`.
@propertyWrapper
package struct NullWhenAbsent<Value: Codable & Sendable & Equatable>: Codable, Sendable, Equatable {
    package var wrappedValue: Value?

    package init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension KeyedDecodingContainer {
    /// A missing key is nil, as for a plain optional (the synthesized decoder calls this overload).
    package func decode<V>(_ type: NullWhenAbsent<V>.Type, forKey key: Key) throws -> NullWhenAbsent<V> {
        try decodeIfPresent(type, forKey: key) ?? NullWhenAbsent(wrappedValue: nil)
    }
}
