import Foundation
import Settings
import Testing

/// `"audio": null` for a silent shot, and older files without the key still read.
@Suite struct NullWhenAbsentTests {
    struct Probe: Codable, Equatable {
        var name: String
        @NullWhenAbsent var level: Int?
    }

    @Test func absentIsWrittenAsNullAndAMissingKeyReadsAsNil() throws {
        let silent = try JSONEncoder().encode(Probe(name: "a", level: nil))
        // The key is there, its value null.
        let written = try JSONSerialization.jsonObject(with: silent) as? [String: Any]
        #expect(written?.keys.sorted() == ["level", "name"] && written?["level"] is NSNull, "\(String(decoding: silent, as: UTF8.self))")
        let loud = try JSONEncoder().encode(Probe(name: "b", level: 3))
        #expect(try JSONDecoder().decode(Probe.self, from: loud) == Probe(name: "b", level: 3))
        let old = try JSONDecoder().decode(Probe.self, from: Data(#"{"name": "c"}"#.utf8))
        #expect(old.level == nil && old.name == "c")
        let null = try JSONDecoder().decode(Probe.self, from: Data(#"{"name": "d", "level": null}"#.utf8))
        #expect(null.level == nil)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Probe.self, from: Data(#"{"name": "e", "level": "x"}"#.utf8)) }
    }
}
