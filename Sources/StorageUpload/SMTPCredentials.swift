import FoundationEssentials
#if canImport(Glibc)
import Glibc
internal import SystemSupport
#endif
package import MailValues

/// The user and password for SMTP AUTH. Never printed: `description` names only the file.
package struct SMTPCredentials: Sendable, Equatable, CustomStringConvertible {
    package var user: String
    package var password: String
    package var source: String

    package var description: String { "SMTP credentials from \(source)" }

    /// Reads `user = ...` and `password = ...` lines (`#` comments, blank lines; the value is
    /// everything after the first `=`, trimmed). The file must not be readable by others, nor by
    /// its group unless root owns it (`FileStatus.keepsSecret`; a systemd credential,
    /// `LoadCredential=`, is 0400 and passes).
    package static func read(file: String) throws(SMTPSettingsProblem) -> SMTPCredentials {
        let bytes: [UInt8], status: FileStatus
        do throws(Descriptors.Errno) {
            let fd = try Posix.open(file, O_RDONLY | O_CLOEXEC)
            defer { Posix.closeAfterUse(fd) }
            status = try Posix.status(of: fd)
            bytes = status.keepsSecret ? try Posix.readAll(fd, limit: 64 * 1024) : []
        } catch {
            throw .credentialsUnreadable(path: file, errno: error.code)
        }
        guard status.keepsSecret else { throw .credentialsOpenToOthers(path: file, mode: status.permissions & 0o7777) }
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
