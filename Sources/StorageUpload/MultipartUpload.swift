import FoundationEssentials
#if canImport(Glibc)
import Glibc
internal import SystemSupport
#endif
import StoreValues

/// One object sent in parts: create (or resume from the journal), send the missing parts a few at
/// a time, complete with the ETags the journal holds, and check the result's ETag.
struct MultipartUpload {
    let backend: S3Backend
    let path: String
    let key: String
    let contentType: String
    let digest: FileDigest
    let journalPath: String

    private var configuration: S3Configuration { backend.configuration }
    private var objectURL: String { backend.url(forKey: key) }
    private var target: String { configuration.prefix + key }

    /// Returns the finished object's ETag, as the store reports it.
    func run() throws(StorageError) -> String {
        var journal = try backend.handles.withHandle { handle throws(StorageError) in try resumeOrCreate(on: handle) }
        let missing = journal.missingParts
        if !missing.isEmpty {
            journal = try sendParts(missing, checksums: try partChecksums(), journal: journal)
        }
        let etag = try backend.handles.withHandle { handle throws(StorageError) in try complete(journal, on: handle) }
        MultipartJournal.remove(journalPath)
        return etag
    }

    /// The journal of an earlier attempt at this same file, key and part size; otherwise a new upload
    /// (an upload recorded for something else, or that no journal names, is aborted first, so its
    /// parts do not linger in the bucket).
    private func resumeOrCreate(on handle: borrowing CurlHandle) throws(StorageError) -> MultipartJournal {
        if let old = MultipartJournal.load(journalPath) {
            if old.key == key, old.partSize == configuration.partSize, old.fileSize == digest.size, old.sha256 == digest.sha256 {
                return old
            }
            try? backend.abortMultipart(key: old.key, uploadID: old.uploadID, on: handle)
            MultipartJournal.remove(journalPath)
        }
        // No journal names an upload of this key; any the store holds was begun by an attempt that
        // never heard the answer, or cut off before its journal reached the disk (power-cut.sh's
        // outbox phase left them open).
        try backend.abortOpenUploads(key: key, on: handle)
        var request = HTTPRequest(method: .post, url: objectURL + "?uploads=")
        request.headers = [("Content-Type", contentType), ("x-amz-meta-sha256", digest.sha256)]
        let response = try backend.send(request, payloadSHA256: S3Backend.emptySHA256, on: handle)
        guard response.status == 200, let uploadID = S3Response.value(of: "UploadId", in: response.text), !uploadID.isEmpty else {
            throw backend.failure(response, .startMultipart, target)
        }
        let journal = MultipartJournal(key: key, uploadID: uploadID, partSize: configuration.partSize,
                                       fileSize: digest.size, sha256: digest.sha256)
        try journal.save(journalPath)
        return journal
    }

    /// The checksums of every part at the configured size: those taken when the post was queued, or,
    /// when the part size has changed since, one streaming pass over the file now.
    private func partChecksums() throws(StorageError) -> PartDigests {
        if let known = digest.parts, known.partSize == configuration.partSize { return known }
        let fresh = try FileDigest.compute(path: path, partSize: configuration.partSize)
        guard fresh.sha256 == digest.sha256, let parts = fresh.parts else {
            throw StorageError(.mismatch, .changedSinceChecksum(path: path), retryable: false)
        }
        return parts
    }

    /// Sends `numbers`, up to `parallelParts` at once, each on its own connection, all from this
    /// thread (libcurl's multi interface): a 2-core kiosk keeps as many parts moving as configured
    /// without a thread each. Each part is journaled as soon as the store acknowledges it. The
    /// first failure stops new parts; those already in flight finish and are journaled.
    private func sendParts(_ numbers: [Int], checksums: PartDigests, journal: MultipartJournal) throws(StorageError) -> MultipartJournal {
        let fd = try LocalFiles.run("open", path) { () throws(Descriptors.Errno) in try Posix.open(path, O_RDONLY | O_CLOEXEC) }
        defer { Posix.closeAfterUse(fd) }
        var journal = journal
        let uploadID = journal.uploadID
        try backend.sendEach(count: numbers.count, width: configuration.parallelParts) { index in
            let number = numbers[index]
            // Straight from the file: the store checks the bytes against Content-MD5, so a file
            // damaged since the checksums were taken is refused, not stored.
            let offset = Int64(number - 1) * configuration.partSize
            let length = min(configuration.partSize, digest.size - offset)
            return (partRequest(number, uploadID: uploadID, body: .file(descriptor: fd, offset: offset, length: length),
                                md5: checksums.md5[number - 1]),
                    checksums.sha256[number - 1])
        } answer: { index, outcome throws(StorageError) in
            let number = numbers[index]
            journal.record(try partRecord(number, try outcome.get(), md5: checksums.md5[number - 1]))
            try journal.save(journalPath)
        }
        return journal
    }

    private func partRequest(_ number: Int, uploadID: String, body: HTTPRequest.Body, md5: String) -> HTTPRequest {
        // Query parameters in name order, values encoded: libcurl signs the query exactly as written.
        let url = "\(objectURL)?partNumber=\(number)&uploadId=\(S3Backend.encode(uploadID, keepSlash: false))"
        var request = HTTPRequest(method: .put, url: url, body: body)
        request.headers = [("Content-MD5", FileDigest.base64(hex: md5))]
        return request
    }

    /// What the journal keeps of part `number`, from the store's answer to it.
    private func partRecord(_ number: Int, _ response: HTTPResponse, md5: String) throws(StorageError) -> MultipartJournal.Part {
        guard response.status == 200 else {
            if S3Response.value(of: "Code", in: response.text) == "NoSuchUpload" { throw expired() }
            throw backend.failure(response, .uploadPart(number), target)
        }
        // The store checked the body against Content-MD5; its ETag need not be that MD5 (SSE-KMS,
        // SSE-C and several S3-compatible stores), and completing needs the ETag it gave.
        guard let etag = response.etag, !etag.isEmpty else {
            throw StorageError(.mismatch, .partWithoutETag(part: number, target: target), retryable: true)
        }
        return MultipartJournal.Part(number: number, etag: etag, md5: md5)
    }

    /// Completes the upload; returns the object's ETag. An ETag other than the MD5-of-MD5s formula
    /// (encrypted or non-AWS stores) is confirmed by the object's size and the SHA-256 this upload
    /// set as its metadata.
    private func complete(_ journal: MultipartJournal, on handle: borrowing CurlHandle) throws(StorageError) -> String {
        var xml = "<CompleteMultipartUpload>"
        for number in 1...journal.partCount {
            xml += "<Part><PartNumber>\(number)</PartNumber><ETag>\"\(journal.part(number)!.etag)\"</ETag></Part>"
        }
        xml += "</CompleteMultipartUpload>"
        let body = Array(xml.utf8)
        var request = HTTPRequest(method: .post, url: "\(objectURL)?uploadId=\(S3Backend.encode(journal.uploadID, keepSlash: false))",
                                  body: .bytes(body))
        request.headers = [("Content-Type", "application/xml")]
        let response = try backend.send(request, payloadSHA256: FileDigest.sha256(body), on: handle)
        let text = response.text
        let code = S3Response.value(of: "Code", in: text)
        if code == "NoSuchUpload" {
            // Completed by an attempt that died before it could remove the journal, or expired.
            if let object = try backend.stat(key: key, on: handle), backend.isOurs(object, digest: digest, etag: journal.expectedETag) {
                return object.etag?.lowercased() ?? journal.expectedETag
            }
            throw expired()
        }
        guard response.status == 200, !S3Response.isError(text) else {
            // A 200 carrying <Error> is how S3 reports a failure after it has started answering.
            if response.status == 200 {
                throw StorageError(.http(status: 200, code: code), .multipartNotFinished(target: target, code: code, message: S3Response.value(of: "Message", in: text)), retryable: true)
            }
            throw backend.failure(response, .completeMultipart, target)
        }
        let etag = S3Response.value(of: "ETag", in: text)?.trimmed { $0 == "\"" }
        if let etag, etag.lowercased() == journal.expectedETag { return etag.lowercased() }
        guard let object = try backend.stat(key: key, on: handle), backend.isOurs(object, digest: digest, etag: journal.expectedETag) else {
            throw StorageError(.mismatch, .multipartChecksumDiffers(target: target, etag: etag, expected: journal.expectedETag), retryable: true)
        }
        return object.etag?.lowercased() ?? journal.expectedETag
    }

    /// The store forgot the upload (expired, or aborted elsewhere): start over on the next attempt.
    private func expired() -> StorageError {
        MultipartJournal.remove(journalPath)
        return StorageError(.http(status: 404, code: "NoSuchUpload"), .uploadForgotten(target: target), retryable: true)
    }
}
