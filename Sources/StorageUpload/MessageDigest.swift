internal import COpenSSL

/// A running SHA-256 or MD5 over libcrypto's EVP interface, owned by one value: the context is
/// freed with it. MD5 runs in Swift (`MD5Hasher`) when libcrypto refuses it, as an OpenSSL FIPS
/// provider does: the checksums S3 wants are the same either way.
struct MessageDigest: ~Copyable {
    enum Algorithm {
        case sha256, md5
    }

    private let context: OpaquePointer?
    private let algorithm: OpaquePointer?
    /// MD5 without libcrypto; set only when `context` is nil.
    private var swiftMD5: MD5Hasher?

    /// Whether libcrypto starts an MD5 digest here (asked once).
    static let libcryptoDoesMD5: Bool = {
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        return EVP_DigestInit_ex(context, EVP_md5(), nil) == 1
    }()

    /// `swiftMD5`: MD5 in Swift even where libcrypto has it (the tests compare the two).
    init(_ kind: Algorithm, swiftMD5 useSwift: Bool = false) {
        if kind == .md5 && (useSwift || !Self.libcryptoDoesMD5) {
            context = nil
            algorithm = nil
            swiftMD5 = MD5Hasher()
            return
        }
        // Only out of memory makes these fail, and a checksum cannot be skipped.
        guard let context = EVP_MD_CTX_new() else { fatalError("libcrypto: out of memory for a digest") }
        self.context = context
        algorithm = kind == .sha256 ? EVP_sha256() : EVP_md5()
        swiftMD5 = nil
        start()
    }

    deinit { if let context { EVP_MD_CTX_free(context) } }

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard !bytes.isEmpty else { return }
        guard let context else { swiftMD5?.update(bytes); return }
        guard EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1 else { fatalError("libcrypto cannot update a digest") }
    }

    /// The digest of everything given so far; the value then starts again, empty.
    mutating func finish() -> [UInt8] {
        guard let context else { return swiftMD5?.finish() ?? [] }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &out, &length) == 1 else { fatalError("libcrypto cannot finish a digest") }
        start()
        return Array(out.prefix(Int(length)))
    }

    /// The digest of `bytes` in memory.
    static func hash(_ kind: Algorithm, _ bytes: [UInt8]) -> [UInt8] {
        var digest = MessageDigest(kind)
        bytes.withUnsafeBytes { digest.update($0) }
        return digest.finish()
    }

    private func start() {
        // SHA-256 is in every provider, FIPS included, and MD5 was checked above: only a libcrypto
        // without memory gets here.
        guard let context, EVP_DigestInit_ex(context, algorithm, nil) == 1 else {
            fatalError("libcrypto cannot start a \(algorithm == EVP_sha256() ? "SHA-256" : "MD5") digest")
        }
    }
}

/// HMAC-SHA256 (RFC 2104) through libcrypto's one-shot `HMAC`: SigV4's signing key and signature.
package enum HMACSHA256 {
    package static func mac(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = key.withUnsafeBytes { k in
            message.withUnsafeBytes { m in
                HMAC(EVP_sha256(), k.baseAddress, Int32(k.count), m.bindMemory(to: UInt8.self).baseAddress, m.count, &out, &length)
            }
        }
        // Only out of memory makes it fail, and a link cannot be signed without it.
        guard done != nil else { fatalError("libcrypto cannot compute an HMAC") }
        return Array(out.prefix(Int(length)))
    }
}
