/// Every configuration key a program accepts: the settings its modules declare, joined.
///
/// `recorder` joins `Setting.core` and the kiosk's; a key outside the catalogue is refused in the
/// file, the environment and `--set` alike, and reading one in code is a programming error.
package struct SettingsCatalogue: Sendable {
    /// The settings, ordered by key.
    package let settings: [Setting]
    private let index: [String: Int]
    /// The keys the operator page may set (the operator's layer, `OperatorLayer`): a value saved
    /// there for any other key is refused.
    package let operatorKeys: Set<String>

    /// Joins the modules' lists; a key declared twice is a programming error, and so is an
    /// operator's key that is not declared.
    package init(_ groups: [Setting]..., operatorKeys: Set<String> = []) {
        settings = groups.joined().sorted { $0.key < $1.key }
        var index: [String: Int] = [:]
        for (position, setting) in settings.enumerated() {
            precondition(index[setting.key] == nil, "configuration key \(setting.key) is declared twice")
            index[setting.key] = position
        }
        self.index = index
        for key in operatorKeys { precondition(index[key] != nil, "operator page key \(key) is not declared") }
        self.operatorKeys = operatorKeys
    }

    /// Whether the operator page may set `key`.
    package func operatorMay(_ key: String) -> Bool { operatorKeys.contains(key) }

    /// Whether this catalogue has the kiosk's state directory, where the operator's layer lives.
    package var hasOperatorLayer: Bool { index["kiosk.state_dir"] != nil }

    package subscript(key: String) -> Setting? {
        index[key].map { settings[$0] }
    }

    /// The keys, ordered.
    package var keys: [String] { settings.map(\.key) }

    /// The core modules' own settings alone (the store, shots, sound, the cache, sharing).
    package static let core = SettingsCatalogue(Setting.core)
}
