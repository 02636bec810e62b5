package import SystemSupport
import FoundationEssentials
import MediaValues
import StoreValues

/// A failure case's data as a script reads it (`--json`'s `data`): the case's values by their
/// labels (`{"id": "K7Q2", "whereItIs": {"case": "uploaded", "video": "…"}}`), never its words.
/// Values keep their type: text, whole and real numbers, yes/no; a nested enum is an object
/// with its `case` and values; a lower failure its `kind`, `failure` and `data`.
package indirect enum CaseData: Sendable, Equatable, Encodable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case bool(Bool)
    case list([CaseData])
    case object([String: CaseData])
    case null

    /// The values of `failure`'s case, by label; an unlabelled value is `value` (or `value1`,
    /// `value2`… when the case has several).
    package init(caseOf value: some Sendable) {
        let mirror = Mirror(reflecting: value)
        guard mirror.displayStyle == .enum, let payload = mirror.children.first else {
            self = .object([:])
            return
        }
        self = Self.fields(of: payload.value)
    }

    /// The labelled values of a case's payload: a tuple's elements, or the one value under `value`
    /// (`cause` for an error; a struct's fields stay nested under it).
    private static func fields(of payload: Any) -> CaseData {
        let mirror = Mirror(reflecting: payload)
        guard mirror.displayStyle == .tuple else { return .object([payload is any Error ? "cause" : "value": CaseData(reflecting: payload)]) }
        return labelled(mirror)
    }

    /// A tuple's or a struct's values by label. Swift labels an unlabelled tuple element ".0",
    /// ".1"…: such a value is `cause` when it is an error, else `value`, or `value1`, `value2`…
    /// counting only the unlabelled ones (so a label added to one value renames no other).
    private static func labelled(_ mirror: Mirror) -> CaseData {
        let unlabelled = mirror.children.filter { ($0.label ?? ".").hasPrefix(".") && !($0.value is any Error) }.count
        var fields: [String: CaseData] = [:]
        var number = 0
        for child in mirror.children {
            let label: String
            if let given = child.label, !given.hasPrefix(".") {
                label = given
            } else if child.value is any Error {
                label = fields["cause"] == nil ? "cause" : "cause\(fields.keys.filter { $0.hasPrefix("cause") }.count + 1)"
            } else {
                number += 1
                label = unlabelled == 1 ? "value" : "value\(number)"
            }
            fields[label] = CaseData(reflecting: child.value)
        }
        return .object(fields)
    }

    /// Any value: the kinds above, an optional's value or null, a collection's elements, a
    /// dictionary's entries, an enum's case and values, a struct's fields.
    package init(reflecting value: Any) {
        switch value {
        case let v as RecorderError:
            self = .object(["kind": .text(v.kind.rawValue), "failure": .text(v.qualifiedCaseName), "data": v.caseData])
        // A lower module's error as the failure it becomes, not its fields (its message is words).
        case let v as StorageError: self = CaseData(reflecting: RecorderError(v))
        case let v as CaptureError: self = CaseData(reflecting: RecorderError(v))
        case let v as MediaError: self = CaseData(reflecting: RecorderError(v))
        case let v as AudioError: self = CaseData(reflecting: RecorderError(v))
        case let v as any RecorderFailure: self = CaseData(reflecting: RecorderError(v))
        case let v as String: self = .text(v)
        case let v as Bool: self = .bool(v)
        case let v as any BinaryInteger: self = .integer(Int64(clamping: v))
        // (JSON has no NaN or infinity: those are text, "nan", "inf", "-inf")
        case let v as Double: self = v.isFinite ? .real(v) : .text("\(v)")
        case let v as Float: self = v.isFinite ? .real(Double(v)) : .text("\(v)")
        case let v as Date: self = .text(RFC3339.string(v))
        default: self = Self.reflecting(structure: value)
        }
    }

    /// `value`'s own structure (an enum's case and values, a struct's fields...), not what a
    /// `RecorderError` makes of it.
    package static func reflecting(structure value: Any) -> CaseData {
        let mirror = Mirror(reflecting: value)
        switch mirror.displayStyle {
        case .optional:
            return mirror.children.first.map { CaseData(reflecting: $0.value) } ?? .null
        case .collection, .set:
            return .list(mirror.children.map { CaseData(reflecting: $0.value) })
        case .dictionary:
            var entries: [String: CaseData] = [:]
            for entry in mirror.children {
                let pair = Array(Mirror(reflecting: entry.value).children)
                guard pair.count == 2 else { continue }
                entries["\(pair[0].value)"] = CaseData(reflecting: pair[1].value)
            }
            return .object(entries)
        case .enum:
            // A case without values has no child: Swift's own printing names it (as `caseName(of:)`
            // does), so an enum reported this way must not print itself otherwise.
            guard let payload = mirror.children.first else { return .object(["case": .text("\(value)")]) }
            var fields = ["case": CaseData.text(payload.label ?? "\(value)")]
            if case .object(let values) = Self.fields(of: payload.value) { fields.merge(values) { old, _ in old } }
            return .object(fields)
        case .struct, .class, .tuple:
            return labelled(mirror)
        default:
            return .text("\(value)")
        }
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
