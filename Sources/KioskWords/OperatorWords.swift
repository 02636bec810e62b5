import Glibc
package import Settings
import SystemSupport
package import Failures
import MediaValues
import StoreValues

/// The operator's words for every failure: what the operator page, the API's `error` and the
/// journal say, settings spelled as configuration keys, never a command-line flag or command
/// (the operator of a kiosk has a page and a configuration file, not a shell). One sentence or two
/// per case: what happened, then what to do. The CLI says the same where the command line has
/// nothing better to offer, and its own words (flags, commands) where it has (`CLIWords`).
///
/// Each failure enum is worded in its own extension (the store's too); the devices' and the
/// encoder's errors keep their own words, which these quote.
package enum OperatorWords {
    /// What happened, what to do, and the settings that would help (as configuration keys).
    package static func text(_ error: RecorderError) -> String {
        message(error) + SettingAdvice.sentence(error.advice, spelledBy: \.spelledAsKey)
    }

    /// What happened and what to do, without the advice: each case by its enum's words (the
    /// compiler finds a case without any), the lower modules' errors in their own.
    package static func message(_ error: RecorderError) -> String {
        switch error {
        case .capture(let error): error.description
        case .media(let error): media(error)
        case .audio(let error): error.description
        case .storage(let error): store(error)
        case .configuration(let problem): configuration(problem)
        case .text(let problem): userText(problem)
        case .internalFailure(let failure): internalFailure(failure)
        case .shot(let failure): shot(failure)
        case .post(let failure): post(failure)
        case .bookend(let failure): bookend(failure)
        case .feed(let failure): feed(failure)
        case .cache(let failure): cache(failure)
        case .export(let failure): export(failure)
        case .reel(let failure): reel(failure)
        case .gallery(let failure): gallery(failure)
        case .serve(let failure): serve(failure)
        case .kiosk(let failure): kiosk(failure)
        case .cli(let failure): commandLine(failure, nested: message)
        case .cliMail(let failure): commandLineMail(failure)
        }
    }

    /// The words of the error a failure tells in its own terms (a store's, a device's), or nothing.
    static func cause(_ failure: some RecorderFailure) -> String {
        failure.cause.map { message($0) } ?? ""
    }

    /// What an errno means.
    static func errno(_ code: Int32) -> String { String(cString: strerror(code)) }

    static func seconds(_ value: Double) -> String { String(cFormat: "%.1f", value) }

    // MARK: - Settings

    static func configuration(_ problem: ConfigurationProblem) -> String {
        let more = problem.more > 0 ? " (\(problem.more) more problem(s))" : ""
        return located(problem, issue(problem.issue)) + more
    }

    /// "file:line: ..." (or where else the value came from), for a value's problem.
    static func located(_ problem: ConfigurationProblem, _ words: String) -> String {
        problem.location.isEmpty ? words : "\(problem.location): \(words)"
    }

    static func issue(_ issue: ConfigurationProblem.Issue) -> String {
        switch issue {
        case .fileMissing(let path):
            "the configuration file \(path) does not exist. Create it, or point RECORDER_CONFIG elsewhere."
        case .fileUnreadable(let path, let code) where code == EACCES:
            "cannot read the configuration file \(path): permission denied. Fix its permissions (chmod 644, or 640 with the service's group), or point RECORDER_CONFIG elsewhere."
        case .fileUnreadable(let path, let code):
            "cannot read the configuration file \(path): \(errno(code)). Fix it, or point RECORDER_CONFIG elsewhere."
        case .fileIsDirectory(let path):
            "the configuration file \(path) is a directory. Point RECORDER_CONFIG at the file, e.g. \(path)/recorder.conf."
        case .fileTooLarge(let path):
            "the configuration file \(path) is over 1 MiB: not a configuration file. Point RECORDER_CONFIG at the right file."
        case .lineNotUTF8:
            "the line is not valid UTF-8 text. Save the file as UTF-8."
        case .notKeyValue(let line):
            "expected 'key = value', got '\(line)'."
        case .unclosedQuote(let key):
            "the value of \(key) opens a double quote and does not close it. Add the closing \" at the end of the value."
        case .textAfterQuote(let key, let text):
            "text after the closing quote of \(key)'s value: '\(text)'. Put the whole value in the quotes, or a comment after ' #'."
        case .setTwice(let key, let first):
            "\(key) is set again (first on line \(first)). Keep one of the two lines."
        case .unknownKey(let key, let suggestion):
            "unknown configuration key '\(key)'." + (suggestion.map { " Did you mean '\($0)'?" } ?? " docs/configuration.md lists the keys.")
        case .badValue(let key, let value, let rule):
            "\(key) = '\(value)' \(requirement(rule))."
        case .weakToken(let key, let weakness):
            "\(key) \(self.weakness(weakness))"
        case .unknownBackend(let value):
            "unknown backend '\(value)'. Use backend = local or backend = s3."
        case .s3Needs(let key):
            "backend = s3 needs \(key): set it in the configuration file, or as \(RecorderConfiguration.environmentName(key))."
        case .badShareTemplate(let template):
            "share.base_url = \(template) must be an http(s) address with {id}, {key} or {token} in it, e.g. https://cdn.example.com/{key} or https://booth.example.com/s/{token}."
        case .badKioskID(let id, let maximum):
            "kiosk.id = '\(id)' must be 1 to \(maximum) lowercase letters, digits and inner dashes, e.g. booth-2: it becomes part of each post's key in the store."
        case .store(let error):
            message(.storage(error))
        case .operatorSettingsUnreadable(let path, let code) where code == EACCES:
            "cannot read the operator page's settings \(path): permission denied. Run the command as root (sudo), as the kiosk reads them."
        case .operatorSettingsUnreadable(let path, let code):
            "cannot read the operator page's settings \(path): \(errno(code)). Fix the disk, or remove the file to go back to the configuration file's settings."
        case .operatorSettingsDamaged(let path):
            "\(path) is not the operator page's settings (its JSON cannot be read). Remove it to go back to the configuration file's settings, then set the event again on the operator page (/admin)."
        case .notAnOperatorKey(let key):
            "\(key) cannot be set on the operator page. Set it in the configuration file, and remove it from the operator page's settings."
        }
    }

    /// What a value must be, as the end of "key = 'value' ...".
    static func requirement(_ rule: Setting.Rule) -> String {
        switch rule {
        case .text: "must be text"
        case .number(let range, let integer):
            "must be \(integer ? "a whole number" : "a number") from \(Setting.Rule.format(range.lowerBound)) to \(Setting.Rule.format(range.upperBound))"
        case .positive(let limit): "must be a number of seconds more than 0 and at most \(Setting.Rule.format(limit))"
        case .boolean: "must be true or false"
        case .choice(let choices): "must be one of: \(choices.joined(separator: ", "))"
        case .choices(let choices): "must be empty, or one or more of \(choices.joined(separator: ", ")), separated by commas"
        case .offOrNumber(let range): "must be off, or a number from \(Setting.Rule.format(range.lowerBound)) to \(Setting.Rule.format(range.upperBound))"
        case .listen: "must be HOST:PORT, e.g. 127.0.0.1:8080 or [::1]:8080, with a port from 1 to 65535"
        case .token: "must be a secret of at least \(Int(TokenStrength.minimumBits)) bits"
        case .frameSize: "must be WIDTHxHEIGHT with each from 16 to 8192, e.g. 1280x720"
        case .pixelFormat: "must be \(rule.valueDescription)"
        }
    }

    /// Why a token is not one, as the end of "the token ...".
    static func weakness(_ weakness: TokenStrength.Weakness) -> String {
        let make = "Make one with: head -c 24 /dev/urandom | base64"
        return switch weakness {
        case .notPrintable: "must be printable ASCII without spaces. \(make)"
        case .tooEasy(let bits): "is too easy to guess (about \(bits) bits; at least \(Int(TokenStrength.minimumBits)) are needed). \(make)"
        }
    }

    static func userText(_ problem: TextProblem) -> String {
        let subject: String
        var lineBreaksFine = true
        switch problem.subject {
        case .caption(let source): subject = source.map { "the caption in \($0)" } ?? "the caption"
        case .consent: subject = "the consent text"
        case .prompts(let origin): (subject, lineBreaksFine) = (origin, false)
        }
        switch (problem.issue, problem.subject) {
        case (.notUTF8, .caption(nil)):
            return "the caption is not valid UTF-8 (it holds U+FFFD, the replacement for undecodable bytes). Pass the caption as UTF-8 text."
        case (.notUTF8, _):
            return "\(subject) is not valid UTF-8 text. Save it as UTF-8."
        case (.controlCharacter(let code, let line), _):
            let at = line.map { ", line \($0)," } ?? ""
            return "\(subject)\(at) contains the control character \(String(cFormat: "U+%04X", code))\(code == 0 ? " (NUL)" : ""). Remove it\(lineBreaksFine ? "; line breaks and tabs are fine" : "")."
        case (.tooLong(let count, let limit, _), .consent):
            return "the consent text has \(count) characters; a guest reads it on one screen, so the limit is \(limit). Shorten it, and link the long version from it."
        case (.tooLong(let count, let limit, let line?), .prompts):
            return "\(subject), line \(line), has \(count) characters; a question is read from afar, so the limit is \(limit). Shorten it."
        case (.tooLong(let count, let limit, _), _):
            return "\(subject) has \(count) characters; the limit is \(limit). Shorten it."
        case (.empty, .consent):
            return "the consent text is empty. Write the sentence a guest agrees to in the file, or set kiosk.consent = off."
        case (.empty, .prompts):
            return "\(subject) holds no question (one a line; blank lines and lines starting with # are left out). Write some, or leave kiosk.prompts out."
        case (.empty, _):
            return "\(subject) is empty."
        case (.tooMany(let count, let limit), _):
            return "\(subject) holds \(count) questions; the limit is \(limit)."
        }
    }

    static func document(_ document: InternalFailure.Document) -> String {
        switch document {
        case .shot: "shot.json"
        case .consent: "the consent record"
        case .postMetadata: "the post's metadata"
        case .receipt: "a receipt"
        case .outboxState: "the outbox state"
        case .gallery: "the gallery"
        }
    }

    /// What an encoder refused: a value JSON cannot hold (a NaN), and where.
    static func encoding(_ failure: EncodingFailure) -> String {
        switch failure {
        case .invalidValue(let type, let path):
            "a \(type) JSON cannot hold (not a number, or infinite)" + (path.isEmpty ? "" : " at \(path.joined(separator: "."))")
        case .other(let type): "the encoder failed (\(type))"
        }
    }

    static func internalFailure(_ failure: InternalFailure) -> String {
        switch failure {
        case .cannotEncode(let document, let failure): "internal error: cannot encode \(Self.document(document)): \(Self.encoding(failure))"
        case .unexpected(let description): description
        case .illegalStateChange(let change): "internal error: illegal state change (\(change))"
        case .noOutcome(let what): "internal error: \(what) ended without an outcome"
        }
    }
}

// The kiosk's journal lines and API answers word failures the operator's way.
extension RecorderError {
    /// What happened and what to do, in the operator's words, without the advice.
    package var message: String { OperatorWords.message(self) }

    /// The operator's words with the advice spelled as configuration keys.
    package func text() -> String { OperatorWords.text(self) }
}
