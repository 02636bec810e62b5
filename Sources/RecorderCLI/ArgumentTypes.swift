import ArgumentParser
import FoundationEssentials
import Shooting
import Publishing
import Settings
import SystemSupport

// Option values are parsed once, by these types, with messages that say what is wanted. Options
// that take numbers or sizes use `parsing: .unconditional`, so a value with a leading '-' reaches
// the check ("must be more than 0") instead of being taken for an option ("Missing value").

/// A value that could not be used: argument-parser prints "The value 'X' is invalid for '--opt <v>': " + this.
struct ValueError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A length in seconds: finite, more than 0 (or, with `allowsZero`, 0 or more), at most `limit`.
struct Seconds: Sendable, Equatable, ExpressibleByArgument {
    var value: Double

    init(_ value: Double) { self.value = value }

    init?(argument: String) {
        guard let parsed = try? Self.parse(argument, limit: ShotRequest.maximumSeconds) else { return nil }
        self = parsed
    }

    static func parse(_ text: String, limit: Double, allowsZero: Bool = false) throws(ValueError) -> Seconds {
        let bound = allowsZero ? "from 0 to \(limit.formatted)" : "more than 0 and at most \(limit.formatted)"
        guard let value = Double(text) else { throw ValueError("give a number of seconds \(bound), e.g. 15 or 2.5.") }
        guard value.isFinite else { throw ValueError("the number is too large: give seconds \(bound).") }
        guard allowsZero ? value >= 0 : value > 0, value <= limit else { throw ValueError("seconds must be \(bound).") }
        return Seconds(value)
    }

    /// `--seconds`: the shot's length (6 hours at most).
    static func shot(_ text: String) throws(ValueError) -> Seconds { try parse(text, limit: ShotRequest.maximumSeconds) }
    /// `--stall-timeout`: more than 0, at most 600.
    static func stall(_ text: String) throws(ValueError) -> Seconds { try parse(text, limit: 600) }
    /// `--min-seconds`: 0 to 600.
    static func minimum(_ text: String) throws(ValueError) -> Seconds { try parse(text, limit: 600, allowsZero: true) }
}

extension Double {
    /// 600 as "600", 2.5 as "2.5".
    var formatted: String { rounded() == self && abs(self) < 1e15 ? String(Int64(self)) : "\(self)" }
}

extension PictureSize: ExpressibleByArgument {
    package init?(argument: String) {
        guard let size = try? Self.parse(argument) else { return nil }
        self = size
    }

    /// WIDTHxHEIGHT, each 16 to 8192.
    static func parse(_ text: String) throws(ValueError) -> PictureSize {
        guard let size = PictureSize(parsing: text) else {
            throw ValueError("give WIDTHxHEIGHT in pixels, e.g. 1280x720.")
        }
        guard (16...8192).contains(size.width), (16...8192).contains(size.height) else {
            throw ValueError("width and height must each be from 16 to 8192, e.g. 1280x720.")
        }
        return size
    }
}

/// Whole numbers in a range: `--crf` (0-51), `--bitrate`.
enum WholeNumber {
    static func parse(_ text: String, _ range: ClosedRange<Int>, _ what: String) throws(ValueError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw ValueError("\(what) must be a whole number from \(range.lowerBound) to \(range.upperBound).")
        }
        return value
    }

    static func crf(_ text: String) throws(ValueError) -> Int {
        try parse(text, 0...51, "the constant rate factor (0 lossless, 51 worst, 23 the default)")
    }
    static func bitrate(_ text: String) throws(ValueError) -> Int { try parse(text, 50...200_000, "the bitrate in kbit/s") }
    static func pageSize(_ text: String) throws(ValueError) -> Int { try parse(text, 1...PostFeed.maximumPageSize, "the number of posts per page") }
}

/// Frames per second: 1 to 240.
struct FramesPerSecond: Sendable, Equatable, ExpressibleByArgument {
    var value: Double
    init(_ value: Double) { self.value = value }
    init?(argument: String) {
        guard let parsed = try? Self.parse(argument) else { return nil }
        self = parsed
    }

    static func parse(_ text: String) throws(ValueError) -> FramesPerSecond {
        guard let value = Double(text), value.isFinite, (1...240).contains(value) else {
            throw ValueError("give frames per second from 1 to 240, e.g. 30 or 29.97.")
        }
        return FramesPerSecond(value)
    }
}

/// A moment given as a day (`2026-11-24`, midnight UTC) or an RFC 3339 time (`2026-11-24T18:00:00Z`).
struct Moment: Sendable, Equatable, ExpressibleByArgument {
    var date: Date

    init?(argument: String) {
        guard let parsed = try? Self.parse(argument) else { return nil }
        self = parsed
    }

    init(_ date: Date) { self.date = date }

    static func parse(_ text: String) throws(ValueError) -> Moment {
        if let date = RFC3339.date(text) { return Moment(date) }
        if text.count == 10, let date = RFC3339.date(text + "T00:00:00Z") { return Moment(date) }
        throw ValueError("give a day (2026-11-24, from midnight UTC) or a time (2026-11-24T18:00:00Z).")
    }
}
