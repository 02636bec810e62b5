/// The few facts of a file that the store, the cache and the kiosk read (from stat(2)).
package struct FileStatus: Sendable, Equatable {
    /// Bytes.
    package var size: Int64
    /// The inode number: a file replaced by rename has a new one.
    package var inode: UInt64
    /// The modification time, in seconds since 1970.
    package var modified: Double
    package var isDirectory: Bool
    /// The mode's permission bits (0o600: only its owner reads and writes it).
    package var permissions: UInt32
    /// A character device (a camera's, a microphone's, an input's node).
    package var isCharacterDevice: Bool
    /// The group that owns it.
    package var group: UInt32
    /// The user that owns it.
    package var owner: UInt32 = 0

    /// Whether a secret in it (a token, the store's or the mail server's credentials) stays one:
    /// no other user may read it, and only its owner may, or, for a file root owns, its owner and
    /// its group read it (the admin shared it with that group on purpose, as /etc/shadow is with
    /// group shadow: the package's tokens are root:recorder 0640, for the organisers).
    package var keepsSecret: Bool {
        permissions & 0o007 == 0 && (permissions & 0o070 == 0 || (owner == 0 && permissions & 0o070 == 0o040))
    }
}
