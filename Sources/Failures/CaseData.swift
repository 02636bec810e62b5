package import SystemSupport
import FoundationEssentials
import MediaValues
import StoreValues

/// A failure case's data as a script reads it (`--json`'s `data`): the case's values by their
/// labels (`{"id": "K7Q2", "whereItIs": {"case": "uploaded", "video": "…"}}`), never its words.
/// Values keep their type: text, whole and real numbers, yes/no; a nested enum is an object
/// with its `case` and values; a lower failure its `kind`, `failure` and `data`. Made from the
/// value's own `Encodable` conformance (`CaseDataEncoder`), not by reflection.
package indirect enum CaseData: Sendable, Equatable, Encodable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case list([CaseData])
    case object([String: CaseData])
    case null

    /// `value`'s data, from its own encoding (`CaseDataEncoder`): an enum's case as an object
    /// with its `case` and values by label, a struct's fields, a failure inside as `{kind,
    /// failure, data}`.
    package init(encoding value: some Encodable) {
        self = CaseDataEncoder.data(of: value)
    }

    /// The data of an enum case's values alone: its object without the `case` (for a value that
    /// is not an enum, its data as it is).
    package init(valuesOf value: some Encodable) {
        self = CaseData(encoding: value)
        if case .object(var fields) = self {
            fields["case"] = nil
            self = .object(fields)
        }
    }

    /// The name of the case an enum's data is (`alreadyPosted`), if it is one.
    package var caseName: String? {
        if case .text(let name)? = self["case"] { return name }
        return nil
    }

    /// The value under `key`, when this is an object.
    package subscript(key: String) -> CaseData? {
        if case .object(let fields) = self { return fields[key] }
        return nil
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .text(let v): try container.encode(v)
        case .integer(let v): try container.encode(v)
        case .real(let v): try container.encode(v)
        case .bool(let v): try container.encode(v)
        case .list(let v): try container.encode(v)
        case .object(let v): try container.encode(v)
        case .null: try container.encodeNil()
        }
    }
}
