#if canImport(Glibc)
import Glibc
#endif

/// MD5 (RFC 1321) in Swift, for when libcrypto refuses it: an OpenSSL FIPS provider does, and S3
/// still wants `Content-MD5` and gives MD5 ETags. Used as an integrity check only, never for
/// security. `MessageDigest` picks it only when libcrypto cannot start an MD5 digest.
struct MD5Hasher {
    private var state: (UInt32, UInt32, UInt32, UInt32) = (0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476)
    private var pending: [UInt8] = []
    private var length: UInt64 = 0

    private static let shifts: [UInt32] = [7, 12, 17, 22, 5, 9, 14, 20, 4, 11, 16, 23, 6, 10, 15, 21]
    /// floor(|sin(i + 1)| * 2^32), as RFC 1321 defines its table.
    private static let constants: [UInt32] = (0..<64).map { UInt32(floor(abs(sin(Double($0 + 1))) * 4_294_967_296)) }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        length &+= UInt64(bytes.count)
        var rest = bytes[...]
        if !pending.isEmpty {
            let take = min(64 - pending.count, rest.count)
            pending += rest.prefix(take)
            rest = rest.dropFirst(take)
            guard pending.count == 64 else { return }
            pending.withUnsafeBytes { compress($0) }
            pending.removeAll(keepingCapacity: true)
        }
        while rest.count >= 64 {
            compress(UnsafeRawBufferPointer(rebasing: rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        pending += rest
    }

    /// The 16-byte digest of everything given so far; the hasher then starts again, empty.
    mutating func finish() -> [UInt8] {
        let bits = length &* 8
        var tail: [UInt8] = [0x80] + [UInt8](repeating: 0, count: (55 - Int(length % 64) + 64) % 64)
        tail += (0..<8).map { UInt8(truncatingIfNeeded: bits >> (8 * UInt64($0))) }
        tail.withUnsafeBytes { update($0) }
        let words = [state.0, state.1, state.2, state.3]
        self = MD5Hasher()
        return words.flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
    }

    private mutating func compress(_ block: UnsafeRawBufferPointer) {
        var (a, b, c, d) = state
        for i in 0..<64 {
            var f: UInt32
            let g: Int
            switch i {
            case 0..<16: f = (b & c) | (~b & d); g = i
            case 16..<32: f = (d & b) | (~d & c); g = (5 * i + 1) % 16
            case 32..<48: f = b ^ c ^ d; g = (3 * i + 5) % 16
            default: f = c ^ (b | ~d); g = (7 * i) % 16
            }
            let word = UInt32(littleEndian: block.loadUnaligned(fromByteOffset: g * 4, as: UInt32.self))
            f = f &+ a &+ Self.constants[i] &+ word
            let shift = Self.shifts[(i / 16) * 4 + i % 4]
            (a, d, c) = (d, c, b)
            b = b &+ (f << shift | f >> (32 - shift))
        }
        state = (state.0 &+ a, state.1 &+ b, state.2 &+ c, state.3 &+ d)
    }
}
