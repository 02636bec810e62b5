import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif

/// Where a post is meant to go: the store's kind and address, never its credentials. A queued post
/// keeps it from the moment it is queued, so a flush under another configuration never sends it to
/// a store it was not meant for.
public struct StoreDestination: Sendable, Codable, Equatable, CustomStringConvertible {
    /// `local` or `s3`.
    public var backend: String
    /// The local store's directory.
    public var path: String?
    /// The S3 endpoint (`https://host[:port]`).
    public var endpoint: String?
    public var bucket: String?
    /// Prepended to every key; empty for none.
    public var prefix: String

    public static func local(path: String, prefix: String = "") -> StoreDestination {
        StoreDestination(backend: "local", path: path, endpoint: nil, bucket: nil, prefix: prefix)
    }

    public static func s3(endpoint: String, bucket: String, prefix: String) -> StoreDestination {
        StoreDestination(backend: "s3", path: nil, endpoint: endpoint, bucket: bucket, prefix: prefix)
    }

    public var description: String {
        switch backend {
        case "local": "the local store \(path ?? "?")\(prefix.isEmpty ? "" : " (prefix \(prefix))")"
        default: "s3://\(bucket ?? "?")/\(prefix) at \(endpoint ?? "?")"
        }
    }

    /// Whether the two name the same store: a local directory by its real path (a symlink or a
    /// trailing slash is the same directory), an endpoint without case or a trailing slash.
    public func isSameStore(as other: StoreDestination) -> Bool {
        guard backend == other.backend, prefix == other.prefix else { return false }
        switch backend {
        case "local":
            return Self.canonical(path: path ?? "") == Self.canonical(path: other.path ?? "")
        default:
            return bucket == other.bucket && Self.canonical(endpoint: endpoint ?? "") == Self.canonical(endpoint: other.endpoint ?? "")
        }
    }

    static func canonical(path: String) -> String {
        if let resolved = realpath(path, nil) {
            defer { free(resolved) }
            return String(cString: resolved)
        }
        var trimmed = path
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }

    static func canonical(endpoint: String) -> String {
        var trimmed = endpoint.lowercased()
        while trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed
    }
}
