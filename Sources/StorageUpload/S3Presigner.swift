internal import COpenSSL
package import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
internal import SystemSupport
package import StoreValues

/// Presigned GET links to objects in an S3 bucket: SigV4 with the signature in the query string
/// (`X-Amz-Algorithm`, `X-Amz-Credential`, `X-Amz-Date`, `X-Amz-Expires`, `X-Amz-SignedHeaders=host`,
/// `X-Amz-Signature`; payload `UNSIGNED-PAYLOAD`), as AWS documents in "Authenticating Requests:
/// Using Query Parameters". Anyone with the link can fetch that one object until it expires, with
/// no credentials; libcurl signs headers only, so this is written here.
package struct S3Presigner: Sendable {
    /// The longest a SigV4 link may live: 7 days.
    package static let maximumExpiry = 604_800

    package let configuration: S3Configuration

    package init(_ configuration: S3Configuration) {
        self.configuration = configuration
    }

    /// A link that GETs `key` (the store's prefix is added) for `expiresSeconds` (1 to 604,800)
    /// from `date`.
    package func url(forKey key: String, expiresSeconds: Int, at date: Date = Date()) throws(StorageError) -> String {
        guard (1...Self.maximumExpiry).contains(expiresSeconds) else {
            throw StorageError(.configuration, .linkLifetimeOutOfRange(seconds: expiresSeconds), retryable: false)
        }
        let backend = S3Backend.Address(configuration)
        let (amzDate, day) = Self.timestamps(date)
        let scope = "\(day)/\(configuration.region)/s3/aws4_request"
        var query: [(String, String)] = [
            ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
            ("X-Amz-Credential", "\(configuration.credentials.accessKeyID)/\(scope)"),
            ("X-Amz-Date", amzDate),
            ("X-Amz-Expires", String(expiresSeconds)),
            ("X-Amz-SignedHeaders", "host"),
        ]
        if let token = configuration.credentials.sessionToken { query.append(("X-Amz-Security-Token", token)) }
        // Sorted by name, names and values percent-encoded (a '/' too).
        let canonicalQuery = query.sorted { $0.0 < $1.0 }
            .map { "\(S3Backend.encode($0.0, keepSlash: false))=\(S3Backend.encode($0.1, keepSlash: false))" }
            .joined(separator: "&")
        let path = backend.path(forKey: configuration.prefix + key)
        let canonicalRequest = ["GET", path, canonicalQuery, "host:\(backend.host)", "", "host", "UNSIGNED-PAYLOAD"].joined(separator: "\n")
        let stringToSign = ["AWS4-HMAC-SHA256", amzDate, scope, FileDigest.sha256(Array(canonicalRequest.utf8))].joined(separator: "\n")
        var signingKey = Array("AWS4\(configuration.credentials.secretAccessKey)".utf8)
        for part in [day, configuration.region, "s3", "aws4_request"] {
            signingKey = HMACSHA256.mac(key: signingKey, Array(part.utf8))
        }
        let signature = HMACSHA256.mac(key: signingKey, Array(stringToSign.utf8)).hex
        return "\(backend.origin)\(path)?\(canonicalQuery)&X-Amz-Signature=\(signature)"
    }

    /// "20130524T000000Z" and "20130524", UTC.
    static func timestamps(_ date: Date) -> (String, String) {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let day = String(cFormat: "%04d%02d%02d", Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday))
        return (day + String(cFormat: "T%02d%02d%02dZ", Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec)), day)
    }
}

extension S3Backend {
    package func presignedURL(forKey key: String, expiresSeconds: Int, at date: Date) throws(StorageError) -> String? {
        try S3Presigner(configuration).url(forKey: key, expiresSeconds: expiresSeconds, at: date)
    }

    /// Where a bucket's objects are: the origin (`scheme://host[:port]`), the Host a client sends,
    /// and each key's path, path style (`/bucket/key`) or virtual-hosted (`/key`).
    struct Address {
        let origin: String
        let host: String
        let bucketPath: String

        init(_ configuration: S3Configuration) {
            var endpoint = configuration.endpoint
            while endpoint.hasSuffix("/") { endpoint.removeLast() }
            let scheme = endpoint.firstRange(of: "://").map { String(endpoint[..<$0.upperBound]) } ?? "https://"
            var host = endpoint.firstRange(of: "://").map { String(endpoint[$0.upperBound...]) } ?? endpoint
            // (a default port is not in the Host header a client sends)
            if scheme == "https://", host.hasSuffix(":443") { host.removeLast(4) }
            if scheme == "http://", host.hasSuffix(":80") { host.removeLast(3) }
            if configuration.pathStyle {
                bucketPath = "/" + S3Backend.encode(configuration.bucket, keepSlash: false)
            } else {
                host = configuration.bucket + "." + host
                bucketPath = ""
            }
            self.host = host
            origin = scheme + host
        }

        func path(forKey key: String) -> String { bucketPath + "/" + S3Backend.encode(key) }
    }
}
