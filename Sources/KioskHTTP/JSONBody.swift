import FoundationEssentials
import HTTPTypes
package import Hummingbird
import NIOCore
import SystemSupport
import Settings

/// A JSON request body, checked before it is decoded: the content type, the size, and that every
/// field is one the route knows (a misspelt field is an error, not silently ignored).
package struct JSONBody {
    let data: Data

    package static func read(_ request: Request, allowed: Set<String>, optional: Bool = false) async throws(APIError) -> JSONBody {
        var request = request
        let buffer: ByteBuffer
        do {
            buffer = try await request.collectBody(upTo: HTTPAnswer.maximumBody)
        } catch {
            throw APIError(.tooLarge, "the request body is larger than \(HTTPAnswer.maximumBody) bytes.")
        }
        if buffer.readableBytes == 0 && optional { return JSONBody(data: Data("{}".utf8)) }
        let type = request.headers[.contentType]?.lowercased() ?? ""
        guard type.hasPrefix("application/json") else {
            throw APIError(.unsupportedMediaType, "send JSON with Content-Type: application/json (got \(type.isEmpty ? "none" : type)).")
        }
        let data = Data(buffer.readableBytesView)
        guard let fields = try? JSONDecoder().decode(JSONObjectKeys.self, from: data) else {
            throw APIError.badRequest("the body is not a JSON object. Example: {\"seconds\": 15, \"countdown\": 3}")
        }
        let unknown = Set(fields.keys).subtracting(allowed).sorted()
        if !unknown.isEmpty {
            let known = allowed.isEmpty ? "this request takes no fields" : "known: \(allowed.sorted().joined(separator: ", "))"
            throw APIError.badRequest("unknown field\(unknown.count == 1 ? "" : "s") \(unknown.joined(separator: ", ")) (\(known)).")
        }
        return JSONBody(data: data)
    }

    /// The field names of a JSON object (decoding anything else fails).
    private struct JSONObjectKeys: Decodable {
        var keys: [String]

        init(from decoder: any Decoder) throws {
            keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
        }

        struct AnyKey: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }
    }

    package func decode<T: Decodable>(_ type: T.Type) throws(APIError) -> T {
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context) {
            let field = context.codingPath.map(\.stringValue).joined(separator: ".")
            throw APIError.badRequest("field \(field) has the wrong type: \(context.debugDescription)")
        } catch {
            throw APIError.badRequest("the body does not fit this request: \(error)")
        }
    }
}
