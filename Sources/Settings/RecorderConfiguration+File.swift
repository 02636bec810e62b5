import FoundationEssentials
import Glibc
internal import SystemSupport
package import Failures

/// The configuration file's format: read (bounded, every failure a problem naming the file) and
/// parsed into lines.
extension RecorderConfiguration {
    // MARK: The file

    enum Line: Equatable {
        case entry(line: Int, key: String, value: String)
        case problem(Problem)
    }

    /// The file's bytes; a missing file, a directory or an unreadable one is a problem saying which.
    static func readFile(_ path: String) throws(Problem) -> [UInt8] {
        let fd: Int32
        do throws(Descriptors.Errno) { fd = try Posix.open(path, O_RDONLY | O_CLOEXEC) } catch {
            throw Problem("", error.code == ENOENT ? .fileMissing(path: path) : .fileUnreadable(path: path, errno: error.code))
        }
        defer { Posix.closeAfterUse(fd) }
        if (try? Posix.status(of: fd))?.isDirectory == true {
            throw Problem("", .fileIsDirectory(path: path))
        }
        do throws(Descriptors.Errno) { return try Posix.readAll(fd, limit: 1 << 20) } catch {
            throw Problem("", error.code == EFBIG ? .fileTooLarge(path: path) : .fileUnreadable(path: path, errno: error.code))
        }
    }

    /// `key = value` lines. `#` starts a comment at the start of a line or after whitespace; a
    /// value wholly in double quotes is taken as it is (the quotes removed, no escapes).
    static func parse(_ bytes: [UInt8], file: String) -> [Line] {
        var lines: [Line] = []
        for (index, raw) in bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let location = "\(file):\(number)"
            guard let text = String(validating: raw, as: UTF8.self) else {
                lines.append(.problem(Problem(location, .lineNotUTF8)))
                continue
            }
            let line = text.trimmed()
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let eq = line.firstIndex(of: "=") else {
                lines.append(.problem(Problem(location, .notKeyValue(line: line))))
                continue
            }
            let key = line[..<eq].trimmed()
            let rest = line[line.index(after: eq)...].trimmed()
            var value: String
            if rest.hasPrefix("\"") {
                let body = rest.dropFirst()
                guard let close = body.firstIndex(of: "\"") else {
                    lines.append(.problem(Problem(location, .unclosedQuote(key: key))))
                    continue
                }
                let after = body[body.index(after: close)...].trimmed()
                guard after.isEmpty || after.hasPrefix("#") else {
                    lines.append(.problem(Problem(location, .textAfterQuote(key: key, text: after))))
                    continue
                }
                value = String(body[..<close])
            } else {
                value = rest
                // A comment: '#' after whitespace. ("a#b" keeps its '#'.)
                var previous: Character = " "
                for index in value.indices {
                    if value[index] == "#" && previous.isWhitespace {
                        value = value[..<index].trimmed()
                        break
                    }
                    previous = value[index]
                }
            }
            lines.append(.entry(line: number, key: key, value: value))
        }
        return lines
    }
}
