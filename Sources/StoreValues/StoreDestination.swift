import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
import SystemSupport

/// Where a post is meant to go: the store's kind and address, never its credentials. A queued post
/// keeps it from the moment it is queued, so a flush under another configuration never sends it to
/// a store it was not meant for.
package struct StoreDestination: Sendable, Codable, Equatable, CustomStringConvertible {
    /// `local` or `s3`.
    package var backend: String
    /// The local store's directory.
    package var path: String?
    /// The S3 endpoint (`https://host[:port]`).
    package var endpoint: String?
    package var bucket: String?
    /// Prepended to every key; empty for none.
    package var prefix: String

    /// `path` is kept absolute (a relative one is taken from the current directory), so the same
    /// words typed in another directory are another store.
    package static func local(path: String, prefix: String = "") -> StoreDestination {
        StoreDestination(backend: "local", path: canonical(path: path), endpoint: nil, bucket: nil, prefix: prefix)
    }

    /// The endpoint is kept without user information (never credentials) or a default port.
    package static func s3(endpoint: String, bucket: String, prefix: String) -> StoreDestination {
        StoreDestination(backend: "s3", path: nil, endpoint: canonical(endpoint: endpoint), bucket: bucket, prefix: prefix)
    }

    package var description: String {
        switch backend {
        case "local": "the local store \(path ?? "?")\(prefix.isEmpty ? "" : " (prefix \(prefix))")"
        default: "s3://\(bucket ?? "?")/\(prefix) at \(endpoint ?? "?")"
        }
    }

    /// Whether the two name the same store: a local directory by its real path (a symlink or a
    /// trailing slash is the same directory), an endpoint without case or a trailing slash.
    package func isSameStore(as other: StoreDestination) -> Bool {
        guard backend == other.backend, prefix == other.prefix else { return false }
        switch backend {
        case "local":
            return Self.canonical(path: path ?? "") == Self.canonical(path: other.path ?? "")
        default:
            return bucket == other.bucket && Self.canonical(endpoint: endpoint ?? "") == Self.canonical(endpoint: other.endpoint ?? "")
        }
    }

    /// The real path when it exists; else absolute and lexically normal (`//`, `/./`, `..` and a
    /// trailing slash folded), so an unmounted disk's path still compares equal to itself.
    static func canonical(path: String) -> String {
        if let resolved = try? Posix.realPath(path) { return resolved }
        var absolute = path
        if !path.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
            if getcwd(&buffer, buffer.count) != nil { absolute = String(cString: buffer) + "/" + path }
        }
        var parts: [Substring] = []
        for part in absolute.split(separator: "/") where part != "." {
            if part == ".." { _ = parts.popLast() } else { parts.append(part) }
        }
        return "/" + parts.joined(separator: "/")
    }

    /// Scheme and host in lower case, no user information, no default port (80 for http, 443 for
    /// https), no trailing slash.
    static func canonical(endpoint: String) -> String {
        var text = Substring(endpoint.trimmingSlashes())
        var scheme = ""
        if let range = text.firstRange(of: "://") {
            scheme = text[..<range.lowerBound].lowercased()
            text = text[range.upperBound...]
        }
        var authority = text.prefix { $0 != "/" }
        let rest = text.dropFirst(authority.count)
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority.lowercased()
        if (scheme == "http" && host.hasSuffix(":80")) || (scheme == "https" && host.hasSuffix(":443")) {
            host = String(host[..<host.lastIndex(of: ":")!])
        }
        return (scheme.isEmpty ? "" : scheme + "://") + host + rest
    }
}

private extension String {
    func trimmingSlashes() -> String {
        var text = self
        while text.hasSuffix("/") { text.removeLast() }
        return text
    }
}
