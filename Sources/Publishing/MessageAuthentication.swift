import StorageUpload

/// HMAC-SHA256 (libcrypto's, through StorageUpload, which owns it) for what the edges seal
/// with a secret (the kiosk's session cookies), and the digest it keeps of a secret it hands out.
package enum MessageAuthentication {
    /// HMAC-SHA256 of `message` under `key`: 32 bytes.
    package static func sha256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        HMACSHA256.mac(key: key, message)
    }

    /// SHA-256 of `bytes`, as 64 lowercase hex digits: what the kiosk keeps of a secret it hands out.
    package static func sha256Hex(_ bytes: [UInt8]) -> String {
        FileDigest.sha256(bytes)
    }
}
