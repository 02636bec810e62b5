#if canImport(Glibc)
import Glibc
#endif
package import Failures

/// How hard an API token is to guess, estimated from what it is made of: its length times the bits
/// of the smallest alphabet that covers it (digits 10, hex 16, one letter case 26, letters and digits
/// 62, base64 64, any printable ASCII 94). A token that repeats a few characters (fewer than a
/// quarter of its length) is judged by the characters it really uses, so `abab...` is weak however
/// long it is. An estimate: it refuses short and repetitive tokens, it cannot prove one random.
///
/// `head -c 24 /dev/urandom | base64` gives 32 characters of base64: 192 bits; `openssl rand -hex 32`
/// 64 hex digits: 256 bits; 16 hex digits: 64 bits, refused.
package enum TokenStrength {
    /// The least a kiosk token must have.
    package static let minimumBits = 128.0

    package static func estimatedBits(_ token: String) -> Double {
        let bytes = Array(token.utf8)
        guard !bytes.isEmpty else { return 0 }
        let isDigit = { (b: UInt8) in (0x30...0x39).contains(b) }
        let isLower = { (b: UInt8) in (0x61...0x7a).contains(b) }
        let isUpper = { (b: UInt8) in (0x41...0x5a).contains(b) }
        let isHexLetter = { (b: UInt8) in (0x61...0x66).contains(b) || (0x41...0x46).contains(b) }
        let alphabet: Double
        if bytes.allSatisfy(isDigit) {
            alphabet = 10
        } else if bytes.allSatisfy({ isDigit($0) || isHexLetter($0) }) && !(bytes.contains(where: isLower) && bytes.contains(where: isUpper)) {
            alphabet = 16
        } else if bytes.allSatisfy(isLower) || bytes.allSatisfy(isUpper) {
            alphabet = 26
        } else if bytes.allSatisfy({ isDigit($0) || isLower($0) }) || bytes.allSatisfy({ isDigit($0) || isUpper($0) }) {
            alphabet = 36
        } else if bytes.allSatisfy({ isDigit($0) || isLower($0) || isUpper($0) }) {
            alphabet = 62
        } else if bytes.allSatisfy({ isDigit($0) || isLower($0) || isUpper($0) || $0 == 0x2b || $0 == 0x2f || $0 == 0x3d || $0 == 0x2d || $0 == 0x5f }) {
            alphabet = 64
        } else {
            alphabet = 94
        }
        // A random token uses many different characters; one that repeats a few is not random,
        // and its real alphabet is what it uses.
        let distinct = Double(Set(bytes).count)
        let used = distinct * 4 < min(Double(bytes.count), alphabet) ? max(distinct, 2) : alphabet
        return Double(bytes.count) * log2(used)
    }

    /// Why a token is not one (`TokenWeakness`, Failures).
    package typealias Weakness = TokenWeakness

    /// Why `token` cannot be a kiosk token, or nil when it can: printable ASCII without spaces, at
    /// least `minimumBits` of estimated entropy.
    package static func weakness(_ token: String) -> Weakness? {
        guard token.utf8.allSatisfy({ $0 >= 0x21 && $0 < 0x7f }) else { return .notPrintable }
        let bits = estimatedBits(token)
        guard bits >= minimumBits else { return .tooEasy(bits: Int(bits)) }
        return nil
    }
}
