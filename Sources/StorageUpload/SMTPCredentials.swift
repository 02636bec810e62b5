import FoundationEssentials
#if canImport(Glibc)
import Glibc
internal import SystemSupport
#endif

/// The user and password for SMTP AUTH. Never printed: `description` names only the file.
package struct SMTPCredentials: Sendable, Equatable, CustomStringConvertible {
    package var user: String
    package var password: String
    package var source: String

    package var description: String { "SMTP credentials from \(source)" }

    /// Reads `user = ...` and `password = ...` lines (`#` comments, blank lines; the value is
    /// everything after the first `=`, trimmed). The file must not be readable by group or others
    /// (a systemd credential, `LoadCredential=`, is 0400 and passes).
    package static func read(file: String) throws(SMTPSettingsProblem) -> SMTPCredentials {
        let fd = open(file, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .credentialsUnreadable(path: file, errno: errno) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .credentialsUnreadable(path: file, errno: errno) }
        guard info.st_mode & 0o077 == 0 else { throw .credentialsOpenToOthers(path: file, mode: info.st_mode & 0o7777) }
        let bytes: [UInt8]
        switch Descriptors.readAll(fd, limit: 64 * 1024) {
        case .success(let read): bytes = read
        case .failure(let failure): throw .credentialsUnreadable(path: file, errno: failure.code)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw .credentialsNotText(path: file) }
        var values: [String: String] = [:]
        for raw in text.split(whereSeparator: \.isNewline) {
            let line = raw.trimmed()
            guard !line.isEmpty, !line.hasPrefix("#"), let eq = line.firstIndex(of: "=") else { continue }
            values[line[..<eq].trimmed().lowercased()] = line[line.index(after: eq)...].trimmed()
        }
        for field in ["user", "password"] where (values[field] ?? "").isEmpty {
            throw .credentialsIncomplete(path: file, missing: field)
        }
        let credentials = SMTPCredentials(user: values["user"]!, password: values["password"]!, source: file)
        guard (credentials.user + credentials.password).unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }) else {
            throw .credentialsNotText(path: file)
        }
        return credentials
    }
}
