/// Every configuration key a program accepts: the settings its modules declare, joined.
///
/// `recorder` joins `Setting.core` and the kiosk's; a key outside the catalogue is refused in the
/// file, the environment and `--set` alike, and reading one in code is a programming error.
package struct SettingsCatalogue: Sendable {
    /// The settings, ordered by key.
    package let settings: [Setting]
    private let index: [String: Int]

    /// Joins the modules' lists; a key declared twice is a programming error.
    package init(_ groups: [Setting]...) {
        settings = groups.joined().sorted { $0.key < $1.key }
        var index: [String: Int] = [:]
        for (position, setting) in settings.enumerated() {
            precondition(index[setting.key] == nil, "configuration key \(setting.key) is declared twice")
            index[setting.key] = position
        }
        self.index = index
    }

    package subscript(key: String) -> Setting? {
        index[key].map { settings[$0] }
    }

    /// The keys, ordered.
    package var keys: [String] { settings.map(\.key) }

    /// The core modules' own settings alone (the store, shots, sound, the cache, sharing).
    package static let core = SettingsCatalogue(Setting.core)
}
