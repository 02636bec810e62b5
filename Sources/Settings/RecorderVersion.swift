/// The version `recorder --version`, the kiosk's status and its metrics report.
package enum RecorderVersion {
    package static let string = "0.5.0"
}
