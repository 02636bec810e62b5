/// Why a microphone stopped handing over sound before the shot's end, as data (the shot's
/// `audio.endedEarly` and its note); the edges word it.
package enum AudioStop: Sendable, Equatable {
    /// The device is gone (ENODEV): a USB microphone pulled out.
    case disconnected
    /// ALSA's `operation` failed with `errno`.
    case failed(operation: String, errno: Int32)
    /// An older shot.json's sentence, as it was written.
    case written(String)
}

// `{"disconnected": {}}`, `{"failed": {"operation": ..., "errno": ...}}`, and a sentence an older
// version wrote read back as `.written` and written back as it was.
extension AudioStop: Codable {
    private struct Key: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .written(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .disconnected:
            var outer = encoder.container(keyedBy: Key.self)
            _ = outer.nestedContainer(keyedBy: Key.self, forKey: Key("disconnected"))
        case .failed(let operation, let errno):
            var outer = encoder.container(keyedBy: Key.self)
            var fields = outer.nestedContainer(keyedBy: Key.self, forKey: Key("failed"))
            try fields.encode(operation, forKey: Key("operation"))
            try fields.encode(errno, forKey: Key("errno"))
        }
    }

    package init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .written(text)
            return
        }
        let outer = try decoder.container(keyedBy: Key.self)
        if outer.contains(Key("disconnected")) {
            self = .disconnected
        } else if outer.contains(Key("failed")) {
            let fields = try outer.nestedContainer(keyedBy: Key.self, forKey: Key("failed"))
            self = .failed(operation: try fields.decode(String.self, forKey: Key("operation")), errno: try fields.decode(Int32.self, forKey: Key("errno")))
        } else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an audio stop is disconnected, failed or a sentence"))
        }
    }
}
