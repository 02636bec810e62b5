import FoundationEssentials
import Glibc
import SystemSupport

/// What a token's settings hold, as data: the token and where it came from, none, or why its file
/// cannot be used. The kiosk refuses the bad ones at its start (`KioskSettings`); `recorder doctor`
/// reports them beside everything else it checks. The caller names the keys: this reads any token
/// set as a value (`key`) or a file (`fileKey`, or the credential its setting names: `secretFile`).
package enum TokenReading: Sendable, Equatable {
    /// Neither set, or the file is empty (the package installs an empty one when asked to).
    case none
    /// The token, and where it came from: a file's path, or the key's origin ("flag", "file:line").
    case token(String, origin: String)
    /// The file is readable by others (`mode` its permission bits): no secret.
    case readableByOthers(path: String, mode: UInt32)
    /// The file cannot be read (missing, no permission, not UTF-8).
    case unreadable(path: String)

    /// Reads the token's settings: the file (or credential) over the value.
    package static func read(_ configuration: RecorderConfiguration, key: String, fileKey: String) -> TokenReading {
        let values = configuration.values
        // An empty file setting is no file, as an empty token is no token (`--set kiosk.token_file=`
        // undoes the configuration file's).
        guard let file = configuration.secretFile(fileKey) else {
            guard let token = values[key], !token.isEmpty else { return .none }
            return .token(token, origin: configuration.origin(key))
        }
        // As for the S3 keys: a token others can read is no secret. systemd's own credential
        // directory is private to the service, whatever the file's mode.
        if !configuration.isSystemdCredential(file), let status = FileSystem.status(of: file), !status.keepsSecret {
            return .readableByOthers(path: file, mode: status.permissions & 0o777)
        }
        guard let fd = try? Posix.open(file, O_RDONLY | O_CLOEXEC) else { return .unreadable(path: file) }
        defer { Posix.closeAfterUse(fd) }
        guard let bytes = try? Posix.readAll(fd, limit: 64 * 1024), let text = String(validating: bytes, as: UTF8.self) else {
            return .unreadable(path: file)
        }
        let trimmed = text.trimmed()
        return trimmed.isEmpty ? .none : .token(trimmed, origin: file)
    }

    /// The token, when there is one.
    package var token: String? {
        if case .token(let token, _) = self { return token }
        return nil
    }
}
