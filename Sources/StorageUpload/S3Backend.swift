import FoundationEssentials
#if canImport(Glibc)
import Glibc
internal import SystemSupport
#endif
package import StoreValues

/// An S3-compatible bucket (AWS, GCS interoperability, R2, SeaweedFS, MinIO), signed with
/// libcurl's SigV4. Small files go up in one PUT, larger ones in parts (see `MultipartUpload`).
package struct S3Backend: StorageBackend {
    package let configuration: S3Configuration
    let handles = CurlHandlePool()

    package init(_ configuration: S3Configuration) throws(StorageError) {
        try configuration.validate()
        self.configuration = configuration
    }

    package var destination: StoreDestination {
        .s3(endpoint: configuration.endpoint, bucket: configuration.bucket, prefix: configuration.prefix)
    }

    package var location: String {
        "s3://\(configuration.bucket)/\(configuration.prefix) at \(configuration.endpoint)"
    }

    /// The bucket's base URL: `endpoint/bucket` (path style) or `scheme://bucket.host[:port]`.
    var bucketURL: String {
        var endpoint = configuration.endpoint
        while endpoint.hasSuffix("/") { endpoint.removeLast() }
        if configuration.pathStyle { return "\(endpoint)/\(configuration.bucket)" }
        guard let schemeEnd = endpoint.firstRange(of: "://") else { return endpoint }
        return endpoint[..<schemeEnd.upperBound] + configuration.bucket + "." + endpoint[schemeEnd.upperBound...]
    }

    package func url(forKey key: String) -> String {
        "\(bucketURL)/\(Self.encode(configuration.prefix + key))"
    }

    /// Percent-encodes a key the way SigV4 signs it: everything but unreserved characters and '/'.
    static func encode(_ key: String, keepSlash: Bool = true) -> String {
        var out = ""
        for byte in key.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "/") where keepSlash:
                out.append("/")
            default:
                out += String(cFormat: "%%%02X", byte)
            }
        }
        return out
    }

    static let emptySHA256 = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// Sends one signed request. `payloadSHA256` is the real hash of the body: libcurl 7.88 does not
    /// add `x-amz-content-sha256` itself, and signs it when it is present. `file` and `progress` as
    /// in `CurlHandle.perform`.
    func send(_ request: HTTPRequest, payloadSHA256: String, on handle: borrowing CurlHandle,
              into file: Int32? = nil, progress: ((_ written: Int64) -> Void)? = nil) throws(StorageError) -> HTTPResponse {
        try handle.perform(try prepare(request, payloadSHA256: payloadSHA256, on: handle, into: file, progress: progress))
    }

    /// Sets `handle` up to send `request` signed, as `send` does, alone or among others (`sendEach`).
    func prepare(_ request: HTTPRequest, payloadSHA256: String, on handle: borrowing CurlHandle,
                 into file: Int32? = nil, progress: ((_ written: Int64) -> Void)? = nil,
                 receiver: BodyReceiver? = nil) throws(StorageError) -> CurlHandle.Transfer {
        var request = request
        request.headers.append(("x-amz-content-sha256", payloadSHA256))
        if let token = configuration.credentials.sessionToken { request.headers.append(("x-amz-security-token", token)) }
        let credentials = configuration.credentials
        return try handle.prepare(request, settings: configuration.transfer,
                                  signing: ("aws:amz:\(configuration.region):s3", "\(credentials.accessKeyID):\(credentials.secretAccessKey)"),
                                  into: file, progress: progress, receiver: receiver)
    }

    func failure(_ response: HTTPResponse, _ operation: StorageError.Operation, _ target: String) -> StorageError {
        S3Response.failure(status: response.status, body: response.text, operation: operation, target: target,
                           credentials: configuration.credentials.source)
    }

    package func prepare() throws(StorageError) {}

    package func partSize(forSize size: Int64) -> Int64? {
        size > configuration.multipartThreshold ? configuration.partSize : nil
    }

    package func stat(key: String) throws(StorageError) -> StoredObject? {
        try handles.withHandle { handle throws(StorageError) in try stat(key: key, on: handle) }
    }

    func stat(key: String, on handle: borrowing CurlHandle) throws(StorageError) -> StoredObject? {
        let response = try send(HTTPRequest(method: .head, url: url(forKey: key)), payloadSHA256: Self.emptySHA256, on: handle)
        switch response.status {
        case 200:
            return StoredObject(size: Int64(response.headers["content-length"] ?? "") ?? -1, etag: response.etag,
                                sha256: response.headers["x-amz-meta-sha256"])
        case 404:
            return nil
        default:
            throw failure(response, .lookUp, configuration.prefix + key)
        }
    }

    @discardableResult
    package func upload(path: String, key: String, contentType: String, digest: FileDigest,
                       journal: String) throws(StorageError) -> String? {
        if digest.size > configuration.multipartThreshold {
            return try MultipartUpload(backend: self, path: path, key: key, contentType: contentType, digest: digest,
                                journalPath: journal).run()
        }
        return try putObject(path: path, key: key, contentType: contentType, digest: digest)
    }

    /// One PUT, with `Content-MD5` so the store rejects a body damaged on the way. Returns the ETag
    /// the store now reports for the object.
    func putObject(path: String, key: String, contentType: String, digest: FileDigest) throws(StorageError) -> String {
        let fd = try LocalFiles.run("open", path) { () throws(Descriptors.Errno) in try Posix.open(path, O_RDONLY | O_CLOEXEC) }
        defer { Posix.closeAfterUse(fd) }
        var request = HTTPRequest(method: .put, url: url(forKey: key), body: .file(descriptor: fd, offset: 0, length: digest.size))
        request.headers = [("Content-Type", contentType), ("Content-MD5", FileDigest.base64(hex: digest.md5)),
                           ("x-amz-meta-sha256", digest.sha256)]
        let response = try handles.withHandle { handle throws(StorageError) in try send(request, payloadSHA256: digest.sha256, on: handle) }
        guard response.status == 200 else { throw failure(response, .upload, configuration.prefix + key) }
        guard let etag = response.etag?.lowercased(), etag != digest.md5 else { return digest.md5 }
        // Not the MD5 (SSE-KMS, SSE-C, several S3-compatible stores): the store checked Content-MD5;
        // confirm by the size and the SHA-256 this request set, never by sending it again.
        guard let object = try stat(key: key), isOurs(object, digest: digest, etag: digest.md5) else {
            throw StorageError(.mismatch, .copyDiffers(key: configuration.prefix + key, etag: etag, md5: digest.md5), retryable: true)
        }
        return object.etag?.lowercased() ?? etag
    }

    /// Whether `object` holds the bytes `digest` describes: by the ETag when it is the expected MD5
    /// (or MD5-of-MD5s), else by the size and the `x-amz-meta-sha256` recorder sets on every upload.
    func isOurs(_ object: StoredObject, digest: FileDigest, etag expected: String) -> Bool {
        guard object.size == digest.size else { return false }
        if object.etag?.lowercased() == expected { return true }
        return object.sha256?.lowercased() == digest.sha256
    }

    package func matches(_ object: StoredObject, path: String, digest: FileDigest) throws(StorageError) -> Bool {
        guard object.size == digest.size else { return false }
        // The SHA-256 every recorder upload sets says more than an ETag, which is not always an MD5.
        if let sha256 = object.sha256 { return sha256.lowercased() == digest.sha256 }
        guard let etag = object.etag?.lowercased() else { return false }
        guard let dash = etag.firstIndex(of: "-") else { return etag == digest.md5 }
        guard let parts = Int(etag[etag.index(after: dash)...]), parts > 0 else { return false }
        // The part size is not recorded by S3: the one in use, else the smallest that gives `parts` parts.
        var candidates = [configuration.partSize]
        let even = (digest.size + Int64(parts) - 1) / Int64(parts)
        let rounded = ((even + (1 << 20) - 1) >> 20) << 20
        if rounded != configuration.partSize { candidates.append(rounded) }
        for partSize in candidates where (digest.size + partSize - 1) / partSize == Int64(parts) {
            if try FileDigest.multipartETag(path: path, size: digest.size, partSize: partSize) == etag { return true }
        }
        return false
    }

    /// Aborts every multipart upload the store holds for `key` (ListMultipartUploads), so one it
    /// began without this machine hearing of it (the answer lost on the way, or a power cut before
    /// the journal naming it reached the disk) does not stay in the bucket, its parts billed. Only
    /// the post named `key` uploads to it (the outbox's lock, random names, never an existing
    /// object). A store that will not list uploads to this key (403, or not implemented) is left
    /// as it is: the upload goes on, and a bucket lifecycle rule cleans up after it there.
    func abortOpenUploads(key: String, on handle: borrowing CurlHandle) throws(StorageError) {
        let target = configuration.prefix + key
        // (a page holds up to 1,000; what is aborted leaves the next listing)
        for _ in 0..<10 {
            let url = "\(bucketURL)/?prefix=\(Self.encode(target, keepSlash: false))&uploads="
            let response = try send(HTTPRequest(method: .get, url: url), payloadSHA256: Self.emptySHA256, on: handle)
            if [403, 405, 501].contains(response.status) { return }
            guard response.status == 200, !S3Response.isError(response.text) else {
                throw failure(response, .listUnfinishedUploads, target)
            }
            let open = S3Response.uploads(response.text).filter { $0.key == target }
            for upload in open { try abortMultipart(key: key, uploadID: upload.uploadID, on: handle) }
            guard !open.isEmpty, S3Response.value(of: "IsTruncated", in: response.text) == "true" else { return }
        }
    }

    /// Cancels a multipart upload so its parts stop taking space. A missing upload counts as done.
    func abortMultipart(key: String, uploadID: String, on handle: borrowing CurlHandle) throws(StorageError) {
        let url = "\(url(forKey: key))?uploadId=\(Self.encode(uploadID, keepSlash: false))"
        let response = try send(HTTPRequest(method: .delete, url: url), payloadSHA256: Self.emptySHA256, on: handle)
        guard response.status == 204 || response.status == 200 || response.status == 404 else {
            throw failure(response, .abortMultipart, configuration.prefix + key)
        }
    }
}
