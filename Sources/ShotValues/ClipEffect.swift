/// What a shot is made into after its take (`shoot.effect`, `kiosk.effects`, `recorder shoot
/// --effect`): nothing, a boomerang (forward then backward, looped), or slow motion.
package enum ClipEffect: String, Sendable, Codable, Hashable, CaseIterable {
    case none
    case boomerang
    case slowmo

    /// The names, as the settings and flags take them.
    package static var names: [String] { allCases.map(\.rawValue) }
}
