/// Sizes for people, in one style everywhere (the CLI, the kiosk's status, messages): binary
/// units as `ls -lh` and the settings (`cache.max_mib`) use, three significant digits.
package enum ByteCount {
    /// "812 bytes", "8.00 KiB", "45.3 MiB", "1.21 GiB".
    package static func human(_ bytes: Int64) -> String {
        let units = ["bytes", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1024 && unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(bytes) bytes" : String(cFormat: value < 10 ? "%.2f " : value < 100 ? "%.1f " : "%.0f ", value) + units[unit]
    }
}
