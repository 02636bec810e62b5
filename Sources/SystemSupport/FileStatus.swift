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
}
