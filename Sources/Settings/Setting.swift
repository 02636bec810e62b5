import FoundationEssentials
import MediaEncoder
import VideoCapture

/// One configuration key: what its value must look like, its default and what it does.
///
/// Each module declares its own (`Setting.core` here, the kiosk's in KioskService); the CLI joins
/// them into one `SettingsCatalogue`, from which the checks, `recorder config show` and
/// `recorder config keys`, the man page and docs/configuration.md all come.
package struct Setting: Sendable {
    /// What a value must look like.
    package enum Rule: Sendable, Equatable {
        /// Any text.
        case text
        /// A number in the range; `integer`: a whole one.
        case number(ClosedRange<Double>, integer: Bool = false)
        /// More than 0 and at most the limit.
        case positive(Double)
        case boolean
        case choice([String])
        /// HOST:PORT.
        case listen
        /// A secret token (at least 128 bits of guessing), or empty for none.
        case token
        case frameSize
        case pixelFormat
    }

    /// `section.name`, as written in the file (`RECORDER_SECTION_NAME` in the environment).
    package let key: String
    package let rule: Rule
    /// The value when nothing sets it; nil: none, or one that depends on the machine (`defaultNote`).
    package let defaultValue: String?
    /// A default that depends on the machine or the environment, in words, for the docs.
    package let defaultNote: String?
    /// A file systemd may hand over with `LoadCredential=` under this name, used when the key is not set.
    package let credential: String?
    /// What the key does, in a sentence or two.
    package let summary: String

    package init(_ key: String, _ rule: Rule = .text, default defaultValue: String? = nil, defaultNote: String? = nil,
                 credential: String? = nil, _ summary: String) {
        self.key = key
        self.rule = rule
        self.defaultValue = defaultValue
        self.defaultNote = defaultNote
        self.credential = credential
        self.summary = summary
    }

    /// A key that takes any text.
    package init(_ key: String, _ summary: String) {
        self.init(key, .text, summary)
    }

    /// The environment variable that sets the key: `RECORDER_` + the key in capitals, dots as underscores.
    package var environmentName: String { RecorderConfiguration.environmentName(key) }

    /// A key whose value is never shown (`config show` masks it).
    package var isSecret: Bool { RecorderConfiguration.isSecret(key) }
}

extension Setting.Rule {
    /// What is wrong with `value` under this rule, as the end of a sentence, or nil.
    package func problem(with value: String) -> String? {
        switch self {
        case .text:
            return nil
        case .number(let range, let integer):
            let kind = integer ? "a whole number" : "a number"
            let bounds = "from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
            guard let number = Double(value), number.isFinite, range.contains(number),
                  !integer || number.rounded() == number else { return "must be \(kind) \(bounds)." }
            return nil
        case .positive(let limit):
            guard let number = Double(value), number.isFinite, number > 0, number <= limit else {
                return "must be a number of seconds more than 0 and at most \(Self.format(limit))."
            }
            return nil
        case .boolean:
            return RecorderConfiguration.parseBoolean(value) == nil ? "must be true or false." : nil
        case .choice(let choices):
            return choices.contains(value) ? nil : "must be one of: \(choices.joined(separator: ", "))."
        case .listen:
            return RecorderConfiguration.parseListen(value) == nil
                ? "must be HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080, with a port from 1 to 65535." : nil
        case .token:
            return value.isEmpty ? nil : TokenStrength.problem(value)
        case .frameSize:
            guard let size = FrameSize(parsing: value), (16...8192).contains(size.width), (16...8192).contains(size.height) else {
                return "must be WIDTHxHEIGHT with each from 16 to 8192, e.g. 1280x720."
            }
            return nil
        case .pixelFormat:
            guard value == "auto" || PixelFormat(name: value) != nil else {
                return "must be auto or one of: \(PixelFormat.allCases.map(\.name).joined(separator: ", "))."
            }
            return nil
        }
    }

    /// The values the rule takes, in a few words, for `recorder config keys` and the docs.
    package var valueDescription: String {
        switch self {
        case .text: "text"
        case .number(let range, let integer):
            "\(integer ? "whole number" : "number") \(Self.format(range.lowerBound))-\(Self.format(range.upperBound))"
        case .positive(let limit): "seconds, more than 0, at most \(Self.format(limit))"
        case .boolean: "true or false"
        case .choice(let choices): choices.joined(separator: " | ")
        case .listen: "HOST:PORT"
        case .token: "secret of at least \(Int(TokenStrength.minimumBits)) bits (head -c 24 /dev/urandom | base64)"
        case .frameSize: "WIDTHxHEIGHT, 16-8192 each"
        case .pixelFormat: "auto or a pixel format (\(PixelFormat.allCases.map(\.name).joined(separator: ", ")))"
        }
    }

    static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
    }
}
