/// What is wrong with the booth's Wi-Fi settings (`WifiNetwork.Problem`), with what the edge
/// needs to say it.
package enum WifiProblem: Error, Sendable, Equatable, Encodable {
    /// A network's name is 1 to 32 bytes (IEEE 802.11).
    case nameTooLong(bytes: Int)
    /// A control character (a line break, a tab) cannot be shown or typed.
    case nameControlCharacter
    /// WPA2 and no password.
    case passwordMissing
    /// WPA2 takes 8 to 63 characters (64 would be a raw key, which a guest cannot type).
    case passwordLength(Int)
    /// WPA2 takes printable ASCII only (space to tilde).
    case passwordCharacter(String)
    /// A password for an open network: one of the two is a mistake.
    case passwordOnOpenNetwork
    /// A password or a security choice but no network name.
    case nameMissing
}
