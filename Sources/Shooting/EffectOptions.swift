package import Settings
package import Failures
package import ShotValues

/// How a shot's effect is made (`effect.*`), and how loud its sound ends (`audio.loudness`).
package struct EffectOptions: Sendable, Hashable {
    /// The boomerang's take, in seconds (`effect.boomerang_seconds`).
    package static let boomerangRange = ShotFailure.boomerangRange

    package var boomerangSeconds = 2.0
    /// The longest a boomerang is (`effect.loop_seconds`).
    package var loopSeconds = 6.0
    /// A sound file under a boomerang (`effect.sound`); nil: silent.
    package var sound: String?
    /// Slow motion keeps its sound, stretched at its pitch (`effect.slowmo_sound = keep`).
    package var slowmoKeepsSound = false

    package init(boomerangSeconds: Double = 2, loopSeconds: Double = 6, sound: String? = nil, slowmoKeepsSound: Bool = false) {
        (self.boomerangSeconds, self.loopSeconds, self.sound, self.slowmoKeepsSound) = (boomerangSeconds, loopSeconds, sound, slowmoKeepsSound)
    }

    /// As the configuration sets them.
    package static func configured(_ configuration: RecorderConfiguration) throws(RecorderError) -> EffectOptions {
        let sound = configuration.text("effect.sound").flatMap { $0.isEmpty ? nil : $0 }
        return EffectOptions(boomerangSeconds: try configuration.number("effect.boomerang_seconds"),
                             loopSeconds: try configuration.number("effect.loop_seconds"), sound: sound,
                             slowmoKeepsSound: configuration.text("effect.slowmo_sound") == "keep")
    }
}

extension ShotRequest {
    /// Makes the shot into `effect`: a boomerang's take lasts `effectOptions.boomerangSeconds`.
    package mutating func choose(_ effect: ClipEffect) {
        self.effect = effect
        if effect == .boomerang { seconds = effectOptions.boomerangSeconds }
    }

    /// `audio.loudness`: off (nil), or a target in LUFS.
    package static func loudness(_ configuration: RecorderConfiguration) throws(RecorderError) -> Double? {
        let text = configuration.text("audio.loudness") ?? "off"
        guard text != "off" else { return nil }
        guard Setting.Rule.offOrNumber(-40 ... -5).accepts(text), let value = Double(text) else {
            throw .configuration(configuration.origin("audio.loudness"), .badValue(key: "audio.loudness", value: text, rule: .offOrNumber(-40 ... -5)))
        }
        return value
    }
}
