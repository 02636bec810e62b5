import FoundationEssentials

/// Makes a value's `CaseData` from its own `Encodable` conformance (the compiler's, for the failure
/// enums and their data): the encoding is recorded as it is written, then read as a script reads a
/// failure. An enum's case (the compiler writes it as a container keyed by the case's name) becomes
/// an object with its `case` and its values by label; a value without a label (the compiler's
/// `_0`, `_1`...) is `value` (`value1`, `value2`... when there are several), or `cause` (`cause2`...)
/// when it is an error; a failure inside another (a `RecorderError`, a lower module's error) is
/// `{kind, failure, data}`; a nil is null; a number JSON cannot hold is text.
struct CaseDataEncoder {
    /// What one value wrote, as it is written.
    final class Node {
        struct Entry {
            var key: String
            var node: Node
            /// Made by `nestedContainer`: how the compiler writes an enum's case.
            var nested: Bool
            var isError: Bool
        }

        enum Content {
            case nothing
            case single(CaseData)
            case keyed([Entry])
            case list([Node])
        }

        var content: Content = .nothing

        func append(_ entry: Entry) {
            if case .keyed(var entries) = content {
                entries.append(entry)
                content = .keyed(entries)
            } else {
                content = .keyed([entry])
            }
        }

        func append(_ node: Node) {
            if case .list(var nodes) = content {
                nodes.append(node)
                content = .list(nodes)
            } else {
                content = .list([node])
            }
        }
    }

    /// `value`'s data.
    static func data(of value: some Encodable) -> CaseData {
        let root = Node()
        do {
            try value.encode(to: Writer(node: root, codingPath: []))
        } catch {
            // (the encoders here throw nothing; a conformance that throws says why as its data)
            return .text("\(error)")
        }
        return data(root)
    }

    /// The value a node holds, as scripts read it.
    static func data(_ node: Node) -> CaseData {
        switch node.content {
        case .nothing: return .null
        case .single(let value): return value
        case .list(let nodes): return .list(nodes.map(data))
        case .keyed(let entries):
            if entries.count == 1, entries[0].nested, case .keyed(let values) = entries[0].node.content {
                return .object(Self.values(values).merging(["case": .text(entries[0].key)]) { _, name in name })
            }
            if entries.count == 1, entries[0].nested, case .nothing = entries[0].node.content {
                return .object(["case": .text(entries[0].key)])
            }
            return .object(Dictionary(entries.map { ($0.key, data($0.node)) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// An enum case's values by label: a value the compiler numbered (`_0`) is `value` or `cause`,
    /// counted among its kind only, so a label added to one value renames no other.
    static func values(_ entries: [Node.Entry]) -> [String: CaseData] {
        func numbered(_ key: String) -> Bool { key.first == "_" && key.dropFirst().allSatisfy(\.isNumber) && key.count > 1 }
        let unlabelled = entries.count { numbered($0.key) && !$0.isError }
        var (values, causes) = (0, 0)
        var fields: [String: CaseData] = [:]
        for entry in entries {
            let label: String
            if !numbered(entry.key) {
                label = entry.key
            } else if entry.isError {
                causes += 1
                label = causes == 1 ? "cause" : "cause\(causes)"
            } else {
                values += 1
                label = unlabelled == 1 ? "value" : "value\(values)"
            }
            fields[label] = data(entry.node)
        }
        return fields
    }

    /// A value written into a node: a failure as the failure it is, anything else as it encodes.
    static func write<T: Encodable>(_ value: T, into node: Node, codingPath: [any CodingKey]) throws {
        if let failure = value as? any FailureCarried {
            node.content = .single(failure.wrapped.document)
            return
        }
        try value.encode(to: Writer(node: node, codingPath: codingPath))
    }

    static func number(_ value: Double) -> CaseData {
        // (JSON has no NaN or infinity: those are text, "nan", "inf", "-inf")
        value.isFinite ? .real(value) : .text("\(value)")
    }

    /// The `Encoder` a value writes itself to.
    struct Writer: Encoder {
        let node: Node
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .keyed = node.content {} else { node.content = .keyed([]) }
            return KeyedEncodingContainer(Keyed<Key>(node: node, codingPath: codingPath))
        }

        func unkeyedContainer() -> any UnkeyedEncodingContainer {
            if case .list = node.content {} else { node.content = .list([]) }
            return Unkeyed(node: node, codingPath: codingPath)
        }

        func singleValueContainer() -> any SingleValueEncodingContainer {
            Single(node: node, codingPath: codingPath)
        }
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let node: Node
        let codingPath: [any CodingKey]

        private func put(_ value: CaseData, _ key: Key) {
            let child = Node()
            child.content = .single(value)
            node.append(Node.Entry(key: key.stringValue, node: child, nested: false, isError: false))
        }

        mutating func encodeNil(forKey key: Key) throws { put(.null, key) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
        mutating func encode(_ value: String, forKey key: Key) throws { put(.text(value), key) }
        mutating func encode(_ value: Double, forKey key: Key) throws { put(CaseDataEncoder.number(value), key) }
        mutating func encode(_ value: Float, forKey key: Key) throws { put(CaseDataEncoder.number(Double(value)), key) }
        mutating func encode(_ value: Int, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int8, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int16, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int32, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: Int64, forKey key: Key) throws { put(.integer(value), key) }
        mutating func encode(_ value: UInt, forKey key: Key) throws { put(.integer(Int64(clamping: value)), key) }
        mutating func encode(_ value: UInt8, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: UInt16, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: UInt32, forKey key: Key) throws { put(.integer(Int64(value)), key) }
        mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.integer(Int64(clamping: value)), key) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            let child = Node()
            try CaseDataEncoder.write(value, into: child, codingPath: codingPath + [key])
            node.append(Node.Entry(key: key.stringValue, node: child, nested: false, isError: value is any Error))
        }

        // A nil is null, as a script expects every field of a case (the compiler's default leaves it out).
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try value.map { try encode($0, forKey: key) } ?? put(.null, key) }
        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { put(.null, key) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = Node()
            child.content = .keyed([])
            node.append(Node.Entry(key: key.stringValue, node: child, nested: true, isError: false))
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: codingPath + [key]))
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
            let child = Node()
            child.content = .list([])
            node.append(Node.Entry(key: key.stringValue, node: child, nested: false, isError: false))
            return Unkeyed(node: child, codingPath: codingPath + [key])
        }

        mutating func superEncoder() -> any Encoder { superEncoder(forKey: Key(stringValue: "super")!) }

        mutating func superEncoder(forKey key: Key) -> any Encoder {
            let child = Node()
            node.append(Node.Entry(key: key.stringValue, node: child, nested: false, isError: false))
            return Writer(node: child, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]
        var count: Int {
            if case .list(let nodes) = node.content { return nodes.count }
            return 0
        }

        private func put(_ value: CaseData) {
            let child = Node()
            child.content = .single(value)
            node.append(child)
        }

        mutating func encodeNil() throws { put(.null) }
        mutating func encode(_ value: Bool) throws { put(.bool(value)) }
        mutating func encode(_ value: String) throws { put(.text(value)) }
        mutating func encode(_ value: Double) throws { put(CaseDataEncoder.number(value)) }
        mutating func encode(_ value: Float) throws { put(CaseDataEncoder.number(Double(value))) }
        mutating func encode(_ value: Int) throws { put(.integer(Int64(value))) }
        mutating func encode(_ value: Int64) throws { put(.integer(value)) }
        mutating func encode(_ value: Int32) throws { put(.integer(Int64(value))) }
        mutating func encode(_ value: UInt32) throws { put(.integer(Int64(value))) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            let child = Node()
            try CaseDataEncoder.write(value, into: child, codingPath: codingPath)
            node.append(child)
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = Node()
            child.content = .keyed([])
            node.append(child)
            return KeyedEncodingContainer(Keyed<NestedKey>(node: child, codingPath: codingPath))
        }

        mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
            let child = Node()
            child.content = .list([])
            node.append(child)
            return Unkeyed(node: child, codingPath: codingPath)
        }

        mutating func superEncoder() -> any Encoder {
            let child = Node()
            node.append(child)
            return Writer(node: child, codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let node: Node
        let codingPath: [any CodingKey]

        mutating func encodeNil() throws { node.content = .single(.null) }
        mutating func encode(_ value: Bool) throws { node.content = .single(.bool(value)) }
        mutating func encode(_ value: String) throws { node.content = .single(.text(value)) }
        mutating func encode(_ value: Double) throws { node.content = .single(CaseDataEncoder.number(value)) }
        mutating func encode(_ value: Float) throws { node.content = .single(CaseDataEncoder.number(Double(value))) }
        mutating func encode(_ value: Int) throws { node.content = .single(.integer(Int64(value))) }
        mutating func encode(_ value: Int8) throws { node.content = .single(.integer(Int64(value))) }
        mutating func encode(_ value: Int16) throws { node.content = .single(.integer(Int64(value))) }
        mutating func encode(_ value: Int32) throws { node.content = .single(.integer(Int64(value))) }
        mutating func encode(_ value: Int64) throws { node.content = .single(.integer(value)) }
        mutating func encode(_ value: UInt) throws { node.content = .single(.integer(Int64(clamping: value))) }
        mutating func encode(_ value: UInt8) throws { node.content = .single(.integer(Int64(value))) }
        mutating func encode(_ value: UInt16) throws { node.content = .single(.integer(Int64(value))) }
        mutating func encode(_ value: UInt32) throws { node.content = .single(.integer(Int64(value))) }
        mutating func encode(_ value: UInt64) throws { node.content = .single(.integer(Int64(clamping: value))) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            try CaseDataEncoder.write(value, into: node, codingPath: codingPath)
        }
    }
}
