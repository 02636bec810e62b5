internal import COpenSSL
import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
internal import SystemSupport
package import StoreValues

extension S3Backend {
    /// ListObjectsV2. libcurl 7.88 signs the query as written, so the parameters go in name order
    /// with their values percent-encoded.
    package func list(prefix: String, startAfter: String?, maxKeys: Int) throws(StorageError) -> ObjectListing {
        let base = configuration.prefix
        var query = "list-type=2&max-keys=\(min(max(maxKeys, 1), 1000))&prefix=\(Self.encode(base + prefix, keepSlash: false))"
        if let startAfter { query += "&start-after=\(Self.encode(base + startAfter, keepSlash: false))" }
        let request = HTTPRequest(method: .get, url: "\(bucketURL)/?\(query)")
        let response = try handles.withHandle { handle throws(StorageError) in
            try send(request, payloadSHA256: Self.emptySHA256, on: handle)
        }
        guard response.status == 200, !S3Response.isError(response.text) else {
            throw failure(response, .list, base + prefix)
        }
        return S3Response.listing(response.text, dropping: base)
    }

    package func read(key: String, limit: Int) throws(StorageError) -> [UInt8]? {
        var request = readRequest(key: key)
        // One byte over the limit kept: an object larger than asked is told from one that fits.
        request.keep = max(limit + 1, 1 << 20)
        let response = try handles.withHandle { handle throws(StorageError) in
            try send(request, payloadSHA256: Self.emptySHA256, on: handle)
        }
        return try readAnswer(response, key: key, limit: limit)
    }

    func readRequest(key: String) -> HTTPRequest {
        HTTPRequest(method: .get, url: url(forKey: key))
    }

    /// The object a read's answer holds (nil: none at `key`), or why there is none to give.
    func readAnswer(_ response: HTTPResponse, key: String, limit: Int) throws(StorageError) -> [UInt8]? {
        switch response.status {
        case 200:
            guard response.body.count <= limit, Int64(response.headers["content-length"] ?? "0") ?? 0 <= Int64(limit) else {
                throw StorageError(.mismatch, .tooLarge(configuration.prefix + key, limit: limit), retryable: false)
            }
            return response.body
        case 404:
            return nil
        default:
            throw failure(response, .read, configuration.prefix + key)
        }
    }

    package func read(key: String, range: ClosedRange<Int64>) throws(StorageError) -> [UInt8]? {
        guard range.lowerBound >= 0, Int64(range.count) <= maximumRangeRead else {
            throw StorageError(.mismatch, .rangeTooLarge(target: configuration.prefix + key, from: range.lowerBound, to: range.upperBound), retryable: false)
        }
        var request = readRequest(key: key)
        request.headers = [("Range", "bytes=\(range.lowerBound)-\(range.upperBound)")]
        // (a store that sends the whole object for a range is cut at the range's end: then it is short)
        request.keep = Int(range.upperBound) + 1
        let response = try handles.withHandle { handle throws(StorageError) in
            try send(request, payloadSHA256: Self.emptySHA256, on: handle)
        }
        switch response.status {
        case 206:
            guard response.body.count <= range.count else {
                throw StorageError(.mismatch, .rangeAnsweredMore(target: configuration.prefix + key, received: response.body.count, asked: range.count), retryable: true)
            }
            return response.body
        case 200:
            // A store that sends the whole object for a range: its part.
            let body = response.body
            guard range.lowerBound < Int64(body.count) else {
                throw StorageError(.mismatch, .rangeNotInObject(target: configuration.prefix + key, size: Int64(body.count), from: range.lowerBound, to: range.upperBound), retryable: false)
            }
            return Array(body[Int(range.lowerBound)..<Int(min(range.upperBound + 1, Int64(body.count)))])
        case 404:
            return nil
        case 416:
            throw StorageError(.mismatch, .rangeNotInObject(target: configuration.prefix + key, size: nil, from: range.lowerBound, to: range.upperBound), retryable: false)
        default:
            throw failure(response, .read, configuration.prefix + key)
        }
    }

    package func stream(key: String, range: ClosedRange<Int64>) throws(StorageError) -> (any ObjectStream)? {
        try ask(key: key, range: range).open()
    }

    /// The request sent now, straight into the taker's pieces where the store answers as S3 does
    /// (`DirectStream`); any other answer, libcurl's (`CurlStream`).
    package func ask(key: String, range: ClosedRange<Int64>) throws(StorageError) -> AskedStream {
        guard range.lowerBound >= 0 else {
            throw StorageError(.mismatch, .rangeNotInObject(target: configuration.prefix + key, size: nil, from: range.lowerBound, to: range.upperBound), retryable: false)
        }
        guard Self.speaksDirectly, let direct = try directStream(key: key, range: range) else {
            return AskedStream { () throws(StorageError) in try curlStream(key: key, range: range) }
        }
        return AskedStream { () throws(StorageError) in try direct.answered() ? direct : try curlStream(key: key, range: range) }
    }

    private func curlStream(key: String, range: ClosedRange<Int64>) throws(StorageError) -> (any ObjectStream)? {
        var request = readRequest(key: key)
        request.headers = [("Range", "bytes=\(range.lowerBound)-\(range.upperBound)")]
        let stream = try CurlStream(range: range) { handle, receiver throws(StorageError) in
            try prepare(request, payloadSHA256: Self.emptySHA256, on: handle, receiver: receiver)
        }
        guard let answer = try stream.start() else { return stream }
        switch answer.status {
        case 404:
            return nil
        case 416:
            throw StorageError(.mismatch, .rangeNotInObject(target: configuration.prefix + key, size: nil, from: range.lowerBound, to: range.upperBound), retryable: false)
        default:
            throw failure(answer, .read, configuration.prefix + key)
        }
    }

    /// Whether a stream may speak HTTP itself over libcurl's connection (`DirectStream`): not when a
    /// proxy is named in the environment, which libcurl would go through, and a request of ours would not.
    static let speaksDirectly = ["http_proxy", "HTTPS_PROXY", "https_proxy", "ALL_PROXY", "all_proxy"].allSatisfy {
        (Posix.environment($0) ?? "").isEmpty
    }

    /// The request for `range` sent on a link presigned for it (a minute: it is checked when the
    /// request arrives), its answer not yet read; nil when the link is not on the store's origin.
    private func directStream(key: String, range: ClosedRange<Int64>) throws(StorageError) -> DirectStream? {
        let address = Address(configuration)
        let url = try S3Presigner(configuration).url(forKey: key, expiresSeconds: 60)
        guard url.hasPrefix(address.origin) else { return nil }
        return try DirectStream(url: url, target: String(url.dropFirst(address.origin.count)), host: address.host, range: range,
                                settings: configuration.transfer)
    }

    package func download(key: String, into descriptor: Int32, progress: ((_ written: Int64) -> Void)?) throws(StorageError) -> DownloadedObject? {
        let response = try handles.withHandle { handle throws(StorageError) in
            try send(HTTPRequest(method: .get, url: url(forKey: key)), payloadSHA256: Self.emptySHA256, on: handle,
                     into: descriptor, progress: progress)
        }
        switch response.status {
        case 200:
            guard let downloaded = response.downloaded else {
                throw StorageError(.transport(code: 0), .downloadWithoutBody(key: configuration.prefix + key), retryable: true)
            }
            if let length = response.headers["content-length"].flatMap({ Int64($0) }), length != downloaded.size {
                throw StorageError(.transport(code: 0), .downloadCutShort(key: configuration.prefix + key, received: downloaded.size, length: length), retryable: true)
            }
            return downloaded
        case 404:
            return nil
        default:
            throw failure(response, .download, configuration.prefix + key)
        }
    }

    package func write(_ bytes: [UInt8], key: String, contentType: String) throws(StorageError) {
        let (request, sha) = writeRequest(bytes, key: key, contentType: contentType)
        let response = try handles.withHandle { handle throws(StorageError) in try send(request, payloadSHA256: sha, on: handle) }
        try writeAnswer(response, key: key)
    }

    /// The PUT of a small object, with `Content-MD5`, and its payload's SHA-256.
    func writeRequest(_ bytes: [UInt8], key: String, contentType: String) -> (request: HTTPRequest, payloadSHA256: String) {
        var request = HTTPRequest(method: .put, url: url(forKey: key), body: .bytes(bytes))
        request.headers = [("Content-Type", contentType), ("Content-MD5", FileDigest.base64(hex: FileDigest.md5(bytes)))]
        return (request, FileDigest.sha256(bytes))
    }

    func writeAnswer(_ response: HTTPResponse, key: String) throws(StorageError) {
        guard response.status == 200 else { throw failure(response, .write, configuration.prefix + key) }
    }

    package func delete(key: String) throws(StorageError) {
        let response = try handles.withHandle { handle throws(StorageError) in
            try send(HTTPRequest(method: .delete, url: url(forKey: key)), payloadSHA256: Self.emptySHA256, on: handle)
        }
        // S3 answers 204 whether or not there was an object; some stores say 404 for none.
        guard response.status == 204 || response.status == 200 || response.status == 404 else {
            throw failure(response, .delete, configuration.prefix + key)
        }
    }
}

extension S3Response {
    /// The keys of a ListObjectsV2 answer, without the store's prefix.
    static func listing(_ xml: String, dropping prefix: String) -> ObjectListing {
        var entries: [ObjectListing.Entry] = []
        for block in blocks("Contents", in: xml) {
            guard var key = value(of: "Key", in: block) else { continue }
            if key.hasPrefix(prefix) { key.removeFirst(prefix.count) }
            entries.append(ObjectListing.Entry(key: key, size: Int64(value(of: "Size", in: block) ?? "") ?? -1,
                                               lastModified: value(of: "LastModified", in: block).flatMap(Self.seconds)))
        }
        return ObjectListing(entries: entries, isTruncated: value(of: "IsTruncated", in: xml) == "true")
    }

    /// "2026-11-22T09:30:00.000Z" as seconds since 1970.
    static func seconds(_ text: String) -> Double? {
        let digits = text.utf8.map { Int($0) - 48 }
        guard digits.count >= 19 else { return nil }
        func number(_ from: Int, _ count: Int) -> Int? {
            var n = 0
            for d in digits[from..<from + count] { guard (0...9).contains(d) else { return nil }; n = n * 10 + d }
            return n
        }
        guard let y = number(0, 4), let mo = number(5, 2), let d = number(8, 2), let h = number(11, 2),
              let mi = number(14, 2), let s = number(17, 2) else { return nil }
        var t = tm()
        t.tm_year = Int32(y - 1900); t.tm_mon = Int32(mo - 1); t.tm_mday = Int32(d)
        t.tm_hour = Int32(h); t.tm_min = Int32(mi); t.tm_sec = Int32(s)
        return Double(timegm(&t))
    }
}
