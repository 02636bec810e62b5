import StorageUpload

/// HMAC-SHA256 (libcrypto's, through StorageUpload, which owns it) for what the edges seal
/// with a secret: the kiosk's session cookies.
package enum MessageAuthentication {
    /// HMAC-SHA256 of `message` under `key`: 32 bytes.
    package static func sha256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        HMACSHA256.mac(key: key, message)
    }
}
