/// A setting that fixes a failure, named by what it is, not by how one edge spells it.
///
/// Lower layers say what happened and which setting would help; the edges spell it: the CLI as a
/// flag (`--audio none`, RecorderCLI), the kiosk's operator page and journal as a configuration key
/// (`audio.device = none`, Settings, where the keys are declared). Guests see neither (the kiosk
/// words failures for them in one place).
package struct SettingAdvice: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The settings a lower layer may point at.
    package enum Setting: Sendable, Hashable, CaseIterable, Codable {
        case camera, pixelFormat, size, frameRate, microphone, workspace, storeDirectory, createStoreDirectory
    }

    package var setting: Setting
    /// The value to give it, or a placeholder in capitals ("FORMAT") when the text says which.
    package var value: String?
    /// Why, as the end of the sentence "use X ...": "to record without sound".
    package var purpose: String

    package init(_ setting: Setting, _ value: String? = nil, _ purpose: String) {
        self.setting = setting
        self.value = value
        self.purpose = purpose
    }

    /// For debugging only: the edges spell advice themselves.
    package var description: String { "\(setting)\(value.map { " \($0)" } ?? "") \(purpose)" }

    /// The advice as one sentence to append to a message, each piece spelled by `spell`:
    /// " Or use `--audio none` to record without sound."
    package static func sentence(_ advice: [SettingAdvice], spelledBy spell: (SettingAdvice) -> String) -> String {
        let parts = advice.map(spell)
        guard let last = parts.last else { return "" }
        let joined = parts.count == 1 ? last : parts.dropLast().joined(separator: ", ") + ", or " + last
        return " Or " + joined + "."
    }
}
