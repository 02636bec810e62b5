import FoundationEssentials
package import Failures
import MediaValues
import SystemSupport

/// One configuration key: what its value must look like, its default and what it does.
///
/// Each module declares its own (`Setting.core` here, the kiosk's in KioskService); the CLI joins
/// them into one `SettingsCatalogue`, from which the checks, `recorder config show` and
/// `recorder config keys`, the man page and docs/configuration.md all come.
package struct Setting: Sendable {
    /// What a value must look like (`SettingRule`, Failures: a bad value's problem carries it).
    package typealias Rule = SettingRule

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

    /// The names of a `.choices` value, in order, blanks trimmed, each once.
    package static func list(_ value: String) -> [String] {
        var names: [String] = []
        for name in value.split(separator: ",").map({ String($0).trimmed() }) where !name.isEmpty && !names.contains(name) {
            names.append(name)
        }
        return names
    }

    /// A key whose value is never shown (`config show` masks it).
    package var isSecret: Bool { RecorderConfiguration.isSecret(key) }
}

extension Setting.Rule {
    /// Whether `value` meets the rule (what it must be is worded by the edges, from the rule).
    package func accepts(_ value: String) -> Bool {
        switch self {
        case .text:
            return true
        case .number(let range, let integer):
            guard let number = Double(value), number.isFinite, range.contains(number) else { return false }
            return !integer || number.rounded() == number
        case .positive(let limit):
            guard let number = Double(value), number.isFinite else { return false }
            return number > 0 && number <= limit
        case .boolean:
            return RecorderConfiguration.parseBoolean(value) != nil
        case .choice(let choices):
            return choices.contains(value)
        case .choices(let choices):
            return Setting.list(value).allSatisfy(choices.contains)
        case .offOrNumber(let range):
            return value == "off" || Setting.Rule.number(range).accepts(value)
        case .listen:
            return RecorderConfiguration.parseListen(value) != nil
        case .token:
            return value.isEmpty || TokenStrength.weakness(value) == nil
        case .frameSize:
            guard let size = FrameSize(parsing: value) else { return false }
            return (16...8192).contains(size.width) && (16...8192).contains(size.height)
        case .pixelFormat:
            return value == "auto" || PixelFormat(name: value) != nil
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
        case .choices(let choices): "empty, or one or more of \(choices.joined(separator: ", ")), separated by commas"
        case .offOrNumber(let range): "off, or a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound))"
        case .listen: "HOST:PORT"
        case .token: "secret of at least \(Int(TokenStrength.minimumBits)) bits (head -c 24 /dev/urandom | base64)"
        case .frameSize: "WIDTHxHEIGHT, 16-8192 each"
        case .pixelFormat: "auto or a pixel format (\(PixelFormat.allCases.map(\.name).joined(separator: ", ")))"
        }
    }

    package static func format(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int64(number)) : "\(number)"
    }
}
