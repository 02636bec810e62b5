import FoundationEssentials
#if canImport(Glibc)
import Glibc
internal import SystemSupport
#endif
package import StoreValues

/// An access key pair. Never printed: `description` names only where it came from.
package struct S3Credentials: Sendable, CustomStringConvertible {
    package var accessKeyID: String
    package var secretAccessKey: String
    package var sessionToken: String?
    /// "the environment" or "the credentials file /etc/...", for messages.
    package var source: String

    package init(accessKeyID: String, secretAccessKey: String, sessionToken: String? = nil, source: String) {
        self.accessKeyID = accessKeyID
        self.secretAccessKey = secretAccessKey
        self.sessionToken = sessionToken
        self.source = source
    }

    package var description: String { "credentials from \(source)" }

    /// `AWS_ACCESS_KEY_ID` + `AWS_SECRET_ACCESS_KEY` (+ `AWS_SESSION_TOKEN`) when both are set,
    /// else the credentials file. The file must not be readable by group or others.
    package static func load(environment: [String: String], file: String?) throws(StorageError) -> S3Credentials {
        if let id = environment["AWS_ACCESS_KEY_ID"], let secret = environment["AWS_SECRET_ACCESS_KEY"], !id.isEmpty, !secret.isEmpty {
            return try validated(S3Credentials(accessKeyID: id, secretAccessKey: secret,
                                               sessionToken: environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 },
                                               source: "the environment (AWS_ACCESS_KEY_ID)"))
        }
        guard let file else {
            throw StorageError(.configuration, .noCredentials, retryable: false)
        }
        return try read(file: file)
    }

    /// Reads `access_key_id = ...` / `secret_access_key = ...` lines (AWS's `aws_` spelling and
    /// `[profile]` headers are accepted and ignored, so an AWS credentials file works too).
    package static func read(file: String) throws(StorageError) -> S3Credentials {
        let status: FileStatus
        do throws(Descriptors.Errno) { status = try Posix.status(of: file) } catch {
            throw StorageError(.configuration, .credentialsUnreadable(file: file, errno: error.code), retryable: false)
        }
        guard status.keepsSecret else {
            throw StorageError(.configuration, .credentialsOpenToOthers(file: file, mode: UInt32(status.permissions)), retryable: false)
        }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else {
            throw StorageError(.configuration, .credentialsNotText(file: file), retryable: false)
        }
        var values: [String: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmed()
            guard !line.isEmpty, !line.hasPrefix("#"), !line.hasPrefix(";"), !line.hasPrefix("["),
                  let eq = line.firstIndex(of: "=") else { continue }
            var key = line[..<eq].trimmed().lowercased()
            if key.hasPrefix("aws_") { key.removeFirst(4) }
            values[key] = line[line.index(after: eq)...].trimmed()
        }
        guard let id = values["access_key_id"], let secret = values["secret_access_key"], !id.isEmpty, !secret.isEmpty else {
            throw StorageError(.configuration, .credentialsIncomplete(file: file), retryable: false)
        }
        return try validated(S3Credentials(accessKeyID: id, secretAccessKey: secret, sessionToken: values["session_token"],
                                           source: "the credentials file \(file)"))
    }

    /// Keys go into an HTTP header (via libcurl's SigV4): refuse anything but printable ASCII.
    private static func validated(_ c: S3Credentials) throws(StorageError) -> S3Credentials {
        for value in [c.accessKeyID, c.secretAccessKey, c.sessionToken ?? ""] {
            guard value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else {
                throw StorageError(.configuration, .credentialsHaveSpaces(source: c.source), retryable: false)
            }
        }
        guard !c.accessKeyID.contains(":") else {
            throw StorageError(.configuration, .accessKeyHasColon(source: c.source), retryable: false)
        }
        return c
    }
}
