/// The few facts of a file that the store, the cache and the kiosk read (from stat(2)).
package struct FileStatus: Sendable, Equatable {
    /// Bytes.
    package var size: Int64
    /// The inode number: a file replaced by rename has a new one.
    package var inode: UInt64
    /// The modification time, in seconds since 1970.
    package var modified: Double
    package var isDirectory: Bool
}
