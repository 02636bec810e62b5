/// Why a token cannot be a kiosk token.
package enum TokenWeakness: Sendable, Equatable, Encodable {
    /// Not printable ASCII without spaces.
    case notPrintable
    /// Too easy to guess: about `bits` of entropy, fewer than `minimumBits`.
    case tooEasy(bits: Int)
}
