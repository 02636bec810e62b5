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
    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .written(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .disconnected:
            var outer = encoder.container(keyedBy: CaseKey.self)
            _ = outer.nestedContainer(keyedBy: CaseKey.self, forKey: CaseKey("disconnected"))
        case .failed(let operation, let errno):
            var outer = encoder.container(keyedBy: CaseKey.self)
            var fields = outer.nestedContainer(keyedBy: CaseKey.self, forKey: CaseKey("failed"))
            try fields.encode(operation, forKey: CaseKey("operation"))
            try fields.encode(errno, forKey: CaseKey("errno"))
        }
    }

    package init(from decoder: any Decoder) throws {
        if let text = try? decoder.singleValueContainer().decode(String.self) {
            self = .written(text)
            return
        }
        let (name, fields) = try CaseKey.single(decoder, "sound's stop")
        switch name {
        case "disconnected": self = .disconnected
        case "failed": self = .failed(operation: try fields.value("operation"), errno: try fields.value("errno"))
        default:
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "an audio stop is disconnected, failed or a sentence"))
        }
    }
}
