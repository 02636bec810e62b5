package import KioskHTTP
package import Settings
package import ShotValues
import Shooting

extension KioskSettings {
    /// The effect a guest (or the API) names, checked (nil: none named): a known one, and one it may
    /// ask for: one of `kiosk.effects`, or with none offered, `shoot.effect` itself.
    package func offeredEffect(_ name: String?) throws(APIError) -> ClipEffect? {
        guard let name else { return nil }
        guard let effect = ClipEffect(rawValue: name) else {
            throw APIError.badRequest("effect must be one of \(ClipEffect.names.joined(separator: ", ")) (got '\(name.prefix(40))').")
        }
        let offered = effects.isEmpty ? [shot.effect] : effects
        guard offered.contains(effect) else {
            throw APIError.badRequest("effect \(name) is not offered: kiosk.effects offers \(offered.map(\.rawValue).joined(separator: ", ")).")
        }
        return effect
    }
}
