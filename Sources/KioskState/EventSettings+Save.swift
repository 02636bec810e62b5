import FoundationEssentials
import Glibc
import Logging
import Synchronization
import Settings
import Failures
import Publishing
import SystemSupport
import KioskWords
package import KioskHTTP

extension EventSettings {
    /// Why changes were not saved: the request itself (which key, which form), or what the changed
    /// settings cannot do (the validator's findings). Nothing of the change was applied.
    package enum Refusal: Error {
        case request(APIError)
        case findings([ConfigurationCheck.Finding])
    }

    /// The operator's layer as the changes make it, and the files written for it (removed again
    /// when it is refused).
    struct Draft {
        var layer: OperatorLayer
        var written: [String]
    }

    /// Saves `changes` as the operator's layer, all or nothing: refused (nothing saved, no file
    /// left) when a key is not the page's, pinned above it, or the changed settings make a finding
    /// the saved ones do not have. Answers what was saved and what needs a restart.
    package func save(_ changes: [String: SettingChange]) async throws(Refusal) -> SettingsSaved {
        try await BlockingWork.run { () throws(Refusal) -> SettingsSaved in
            try self.changing.withLock { _ throws(Refusal) -> SettingsSaved in try self.saveNow(changes) }
        }
    }

    /// What `changes` would make, saved or not (the page asks as the organiser types): the
    /// findings they add, and where share links would point. Nothing is kept.
    package func check(_ changes: [String: SettingChange]) async throws(Refusal) -> SettingsChecked {
        try await BlockingWork.run { () throws(Refusal) -> SettingsChecked in
            try self.changing.withLock { _ throws(Refusal) -> SettingsChecked in
                let saved = self.running.readAgain()
                let draft = try self.draft(changes, saved: saved)
                defer { self.removeUnused(draft.written, keeping: saved.layer) }
                let candidate = saved.reading(layer: draft.layer)
                return SettingsChecked(findings: Self.added(by: candidate, to: saved).map(Self.words), shareLinks: self.shareReach(candidate))
            }
        }
    }

    private func saveNow(_ changes: [String: SettingChange]) throws(Refusal) -> SettingsSaved {
        let saved = running.readAgain()
        let draft = try draft(changes, saved: saved)
        let candidate = saved.reading(layer: draft.layer)
        let added = Self.added(by: candidate, to: saved)
        guard added.isEmpty else {
            removeUnused(draft.written, keeping: saved.layer)
            throw .findings(added)
        }
        do throws(FileSystem.Failure) { try draft.layer.write(directory: directory) } catch {
            removeUnused(draft.written, keeping: saved.layer)
            throw .request(APIError(.recorder(.ioFailure), "the settings were not saved: cannot \(error.operation) \(error.path): \(error.errno.description). Nothing was changed."))
        }
        removeUnused(nil, keeping: draft.layer)
        let pending = pending(candidate)
        // (the keys, never a value: a password may be among them)
        logger.notice("operator page: saved \(changes.keys.sorted().joined(separator: ", ")) (\(pending.isEmpty ? "nothing to restart for" : "taken at the next restart"))")
        return SettingsSaved(saved: changes.keys.sorted(), pending: pending, restartNeeded: !pending.isEmpty, restart: restart.status)
    }

    /// The findings `candidate` has that `saved` has not: what the change would break (a problem
    /// already there, say a file gone since, is not the change's).
    static func added(by candidate: RecorderConfiguration, to saved: RecorderConfiguration) -> [ConfigurationCheck.Finding] {
        let before = ConfigurationCheck.findings(saved).map(\.error)
        return ConfigurationCheck.findings(candidate).filter { !before.contains($0.error) }
    }

    /// The layer `changes` make from `saved`'s, with the files they name written (durably) into
    /// `filesDirectory`. A key the page does not set, a form its field does not take, or a key a
    /// variable or flag pins above the page is refused before anything is written.
    func draft(_ changes: [String: SettingChange], saved: RecorderConfiguration, allowNone: Bool = false) throws(Refusal) -> Draft {
        guard !changes.isEmpty || allowNone else { throw .request(.badRequest("no change: send {\"changes\": {\"event.name\": \"...\"}}.")) }
        if let problem = saved.problems.first(where: { if case .operatorSettingsDamaged = $0.issue { true } else if case .operatorSettingsUnreadable = $0.issue { true } else { false } }) {
            throw .findings([ConfigurationCheck.Finding(keys: [], error: RecorderError(problem))])
        }
        for key in changes.keys.sorted() {
            guard let field = EventSection.field(key) else {
                throw .request(.badRequest("\(key) is not set on the operator page; it sets \(EventSection.fields.map(\.key).joined(separator: ", ")). Set the others in the configuration file."))
            }
            let origin = saved.values[key] == nil ? "default" : saved.origin(key)
            if Self.pins(origin) {
                throw .request(APIError(.recorder(.denied), "\(key) is set by \(origin == "the command line" ? "the command line (--set or a flag of recorder kiosk)" : "\(origin) in the kiosk's environment (a systemd drop-in)"), which is above the operator page: change it there, or remove it there to set it here. Nothing was saved."))
            }
            if !Self.takes(field.edit, changes[key]!) {
                throw .request(.badRequest("\(key) takes \(Self.form(field.edit)). Nothing was saved."))
            }
        }
        var layer = saved.layer ?? OperatorLayer()
        var written: [String] = []
        let now = RFC3339.string(clock.date)
        for (key, change) in changes.sorted(by: { $0.key < $1.key }) {
            let value: String?
            do throws(Refusal) {
                value = try layerValue(key, change, written: &written)
            } catch {
                removeUnused(written, keeping: saved.layer)
                throw error
            }
            layer.entries[key] = value.map { OperatorLayer.Entry(value: $0, changedAt: now) }
        }
        return Draft(layer: layer, written: written)
    }

    /// Whether a field edited as `edit` takes `change`.
    static func takes(_ edit: EventSection.Edit, _ change: SettingChange) -> Bool {
        switch (edit, change) {
        case (_, .reset): true
        case (.value, .value), (.choice, .value), (.toggle, .value), (.secret, .value): true
        case (.text, .text), (.frame, .frame), (.login, .login): true
        // (no frame, no login: the value empty)
        case (.frame, .value(let value)), (.login, .value(let value)): value.isEmpty
        default: false
        }
    }

    /// What a field edited as `edit` takes, for a refusal.
    static func form(_ edit: EventSection.Edit) -> String {
        switch edit {
        case .value, .choice, .toggle, .secret: "a value, or null for the configuration file's"
        case .text: "{\"text\": ...} (empty for none), or null for the configuration file's"
        case .frame: "{\"upload\": ID} of a PNG sent to POST /api/admin/frame, \"\" for no frame, or null for the configuration file's"
        case .login: "{\"user\": ..., \"password\": ...}, \"\" for no login, or null for the configuration file's"
        }
    }

    /// The layer's value of one change (nil: the key leaves the layer), writing the file it names.
    private func layerValue(_ key: String, _ change: SettingChange, written: inout [String]) throws(Refusal) -> String? {
        switch change {
        case .reset: return nil
        case .value(let value):
            // (a name or an address typed with a space at either end; a password as typed)
            return EventSection.field(key)?.edit == .secret ? value : value.trimmed()
        case .text(let text):
            let normalized = text.replacing("\r\n", with: "\n")
            guard !normalized.trimmed().isEmpty else { return key == "kiosk.consent" ? "off" : "" }
            return try writeFile(Array(normalized.utf8), name: key == "kiosk.consent" ? "consent" : "prompts", ext: ".txt", mode: 0o644, written: &written)
        case .frame(let upload):
            guard Self.isUploadID(upload), FileSystem.status(of: framePath(upload)) != nil else {
                throw .request(APIError(.recorder(.notFound), "there is no uploaded frame \(upload.prefix(40)): upload the PNG first (POST /api/admin/frame). Nothing was saved."))
            }
            return framePath(upload)
        case .login(let user, let password):
            let user = user.trimmed(), password = password.trimmed()
            guard !user.isEmpty, !password.isEmpty, !(user + password).contains(where: { $0.isNewline }) else {
                throw .request(.badRequest("the mail server's login needs a user and a password, each on one line. Nothing was saved."))
            }
            return try writeFile(Array("user = \(user)\npassword = \(password)\n".utf8), name: "mail-login", ext: "", mode: 0o600, written: &written)
        }
    }

    /// Writes `bytes` durably as `operator/NAME-DIGEST.EXT` (the same text, the same file) and
    /// answers its path.
    private func writeFile(_ bytes: [UInt8], name: String, ext: String, mode: UInt32, written: inout [String]) throws(Refusal) -> String {
        let path = "\(filesDirectory)/\(name)-\(MessageAuthentication.sha256Hex(bytes).prefix(24))\(ext)"
        do throws(FileSystem.Failure) {
            try FileSystem.createDirectories(filesDirectory, mode: 0o700)
            if FileSystem.status(of: path) == nil {
                try FileSystem.writeDurably(bytes, to: path, mode: mode)
                written.append(path)
            }
        } catch {
            throw .request(APIError(.recorder(.ioFailure), "the settings were not saved: cannot \(error.operation) \(error.path): \(error.errno.description). Nothing was changed."))
        }
        return path
    }

    /// A frame's upload id: 24 hex digits of its SHA-256.
    package static func isUploadID(_ id: String) -> Bool {
        id.utf8.count == 24 && id.utf8.allSatisfy { ("0"..."9").contains(Character(UnicodeScalar($0))) || ("a"..."f").contains(Character(UnicodeScalar($0))) }
    }

    package func framePath(_ upload: String) -> String { "\(filesDirectory)/frame-\(upload).png" }

    /// Removes files of `filesDirectory` that `layer` does not name: `only` these (a refused
    /// change's), or every one (after a save), but a frame uploaded within the hour (a page that
    /// has not saved yet) and temporaries. Best effort: one left is removed after the next save.
    func removeUnused(_ only: [String]?, keeping layer: OperatorLayer?) {
        let named = Set((layer?.entries.values.map(\.value)) ?? [])
        let now = clock.date.timeIntervalSince1970
        let candidates = only ?? DirectoryListing.namesIfReadable(filesDirectory).filter { !$0.hasPrefix(".") }.map { "\(filesDirectory)/\($0)" }
        for path in candidates where !named.contains(path) {
            if only == nil, path.hasSuffix(".png"), let status = FileSystem.status(of: path), now - status.modified < 3600 { continue }
            // (best effort, as said above)
            try? Posix.unlink(path)
        }
    }
}
