/// The few facts of a file that the store, the cache and the kiosk read (from stat(2)).
public struct FileStatus: Sendable, Equatable {
    /// Bytes.
    public var size: Int64
    /// The inode number: a file replaced by rename has a new one.
    public var inode: UInt64
    /// The modification time, in seconds since 1970.
    public var modified: Double
    public var isDirectory: Bool
}
