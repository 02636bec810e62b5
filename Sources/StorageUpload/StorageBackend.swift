/// An object store the outbox uploads into: the local directory (the default) or an S3-compatible
/// bucket. Keys are relative paths such as `videos/Ab3dE5fG7h.mp4`; the backend adds its prefix.
public protocol StorageBackend: Sendable {
    /// Where objects go, for messages and `--dry-run`: a directory, or `s3://bucket/prefix at endpoint`.
    var location: String { get }

    /// The address a viewer would use for `key`.
    func url(forKey key: String) -> String

    /// Makes the store ready to receive, before the first upload of a flush: creates the local
    /// directory. An S3 store needs no request: a missing bucket answers the first PUT with
    /// NoSuchBucket, which says more than a HEAD's bare 404.
    func prepare() throws(StorageError)

    /// The part size a file of `size` bytes will be uploaded in, or nil for a single request, so the
    /// caller can take the part checksums in the same pass as the file's own.
    func partSize(forSize size: Int64) -> Int64?

    /// What the store holds at `key`, or nil when there is nothing.
    func stat(key: String) throws(StorageError) -> StoredObject?

    /// Uploads the file at `path` to `key`. `journal` is a file this call may use to resume an
    /// interrupted upload; it is removed when the upload completes. Returns the ETag the store
    /// must now report for the object (checked by the caller), or nil when it has none.
    @discardableResult
    func upload(path: String, key: String, contentType: String, digest: FileDigest,
                journal: String) throws(StorageError) -> String?

    /// Whether `object` holds exactly the bytes of the file at `path` (described by `digest`).
    func matches(_ object: StoredObject, path: String, digest: FileDigest) throws(StorageError) -> Bool
}

/// What a store reports about one object.
public struct StoredObject: Sendable, Equatable {
    public var size: Int64
    /// The S3 ETag without quotes (an MD5, or MD5-of-MD5s-N for a multipart upload).
    public var etag: String?
    /// The SHA-256 of the bytes, when the store computes it (the local directory does).
    public var sha256: String?

    public init(size: Int64, etag: String?, sha256: String?) {
        self.size = size
        self.etag = etag
        self.sha256 = sha256
    }
}
