package import StoreValues
import SystemSupport
package import StoreValues

/// One thing wrong with the configuration, and where: the data each edge words (`recorder config
/// check` lists them all, the first fails a command, exit 78).
package struct ConfigurationProblem: RecorderFailure, CustomStringConvertible {
    /// Where the value came from: "file:line", an environment variable's name, "the command line",
    /// "the default"; empty when the problem is the file itself.
    package var location: String
    package var issue: Issue
    /// How many more problems there are (`recorder config check` lists them).
    package var more: Int

    /// A secret's bad value (a token, a password, the password in a URL) is masked here, so no
    /// edge and no `--json` document can show it.
    package init(_ location: String, _ issue: Issue, more: Int = 0) {
        self.location = location
        if case .badValue(let key, let value, let rule) = issue {
            self.issue = .badValue(key: key, value: Self.masked(key, value), rule: rule)
        } else {
            self.issue = issue
        }
        self.more = more
    }

    /// `value` as a problem or a listing may show it: a secret's (`isSecret`) masked, a URL's
    /// password left out.
    package static func masked(_ key: String, _ value: String) -> String {
        if value.isEmpty { return value }
        if isSecret(key) { return "********" }
        return value.withoutURLPassword
    }

    /// The token, anything named like a secret or password; not a file that holds one.
    package static func isSecret(_ key: String) -> Bool {
        let name = key.lowercased()
        return (name.hasSuffix("token") || name.contains("secret") || name.contains("password")) && !name.hasSuffix("_file")
    }

    /// What is wrong.
    package enum Issue: Sendable, Equatable, Encodable {
        // The file
        case fileMissing(path: String)
        /// The file cannot be opened or read (errno: EACCES for permission denied).
        case fileUnreadable(path: String, errno: Int32)
        case fileIsDirectory(path: String)
        /// Over 1 MiB: not a configuration file.
        case fileTooLarge(path: String)
        // A line of the file
        case lineNotUTF8
        case notKeyValue(line: String)
        case unclosedQuote(key: String)
        case textAfterQuote(key: String, text: String)
        case setTwice(key: String, firstLine: Int)
        /// No such key; `suggestion`: the known key closest to it, when one is close.
        case unknownKey(key: String, suggestion: String?)
        // A value
        /// `value` does not meet `key`'s rule.
        case badValue(key: String, value: String, rule: SettingRule)
        /// The token (`key`) is not a token: not printable, or too easy to guess.
        case weakToken(key: String, TokenWeakness)
        case unknownBackend(String)
        /// `backend = s3` needs `key`.
        case s3Needs(key: String)
        /// `share.base_url` is not an http(s) address with {id}, {key} or {token} in it.
        case badShareTemplate(String)
        /// `kiosk.id` is not 1 to `maximumLength` lowercase letters, digits and inner dashes.
        case badKioskID(String, maximumLength: Int)
        /// The store's settings cannot work (S3: a bad endpoint, missing credentials).
        case store(StorageError)
    }

    package var kind: RecorderError.Kind { .misconfigured }

    package var cause: RecorderError? {
        if case .store(let error) = issue { return .storage(error) }
        return nil
    }

    /// The problem with where it is, for debugging (the edges word it).
    package var description: String { location.isEmpty ? "\(issue)" : "\(location): \(issue)" }

    /// The issue's case (`unknownKey`), not the description with its location.
    package var caseName: String { CaseData(encoding: issue).caseName ?? "\(issue)" }

    /// The issue's data: `{"key": "s3.bukket", "suggestion": "s3.bucket"}`.
    package var caseData: CaseData { CaseData(valuesOf: issue) }
}

extension RecorderError {
    /// A configuration problem at `location`.
    package static func configuration(_ location: String, _ issue: ConfigurationProblem.Issue) -> RecorderError {
        RecorderError(ConfigurationProblem(location, issue))
    }
}

extension ConfigurationProblem {
    package var wrapped: RecorderError { .configuration(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .configuration(let failure) = error else { return nil }
        self = failure
    }
}
