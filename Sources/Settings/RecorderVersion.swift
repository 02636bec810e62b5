package import FoundationEssentials

/// The version `recorder --version`, the kiosk's status and its metrics report.
package enum RecorderVersion {
    package static let string = "0.5.0"
    /// No build of this version was made before this day: a clock that says it is earlier is
    /// wrong (retention refuses to purge by it). Moved on when the version is.
    package static let madeAt = Date(timeIntervalSince1970: 1_795_651_200)  // 2026-11-26T00:00:00Z
}
