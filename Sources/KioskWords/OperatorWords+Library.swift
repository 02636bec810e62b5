package import Settings
package import Failures

extension OperatorWords {
    static func cache(_ failure: CacheFailure) -> String {
        switch failure {
        case .unusable(let directory, _):
            "cannot use the video cache \(directory): \(cause(failure)) Set cache.path to a writable directory."
        case .cannotCopy:
            cause(failure)
        case .cannotFetch(let id, _):
            "cannot fetch post \(id)'s video: \(cause(failure))"
        case .videoNotInStore(let id, let key, let store):
            "post \(id)'s video (\(key)) is not in the store \(store). Its metadata exists, so the upload may still be under way; try again later."
        case .mismatch(let id, let size, let sha256, let expectedSize, let expectedSHA256):
            "the store's copy of post \(id)'s video does not match its metadata (\(size) bytes, SHA-256 \(sha256.prefix(12))…; expected \(expectedSize) bytes, \(expectedSHA256.prefix(12))…). It was not cached; check the store."
        }
    }

    static func export(_ failure: ExportFailure) -> String {
        export(failure, newArchive: "a new archive", newDirectory: "a new directory")
    }

    /// The export's words, with how the edge names a new target.
    package static func export(_ failure: ExportFailure, newArchive: String, newDirectory: String) -> String {
        switch failure {
        case .archiveExists(let path):
            "\(path) already exists: export into \(newArchive). It was not changed."
        case .targetIsFile(let path):
            "\(path) is a file: export into \(newDirectory), or name an archive NEW.zip. The file was not changed."
        case .directoryNotEmpty(let path):
            "\(path) already exists and is not empty: export into \(newDirectory). Nothing in it was changed."
        case .cannotMake(let partial, _):
            "cannot make the export \(partial): \(cause(failure))"
        case .cannotWrite(let id, let partial, _):
            "cannot write post \(id) into \(partial): \(cause(failure)) Nothing was exported."
        case .cannotFinish(let target, _):
            "cannot finish the export in \(target): \(cause(failure))"
        case .cannotRead(let id, _):
            "cannot export post \(id): \(cause(failure))"
        case .consentTextMissing(let id, let key, let sha256):
            "post \(id) was recorded under a guest's consent, but the text they agreed to (\(key)) is missing from the store or does not match its SHA-256: it is not exported without it. Restore \(key) from a kiosk's consent file (sha256sum must give \(sha256))."
        case .nothingToExport(let since, let store, let skipped):
            "no post made since \(since) in \(store)\(unreadable(skipped)): nothing was exported. Choose an earlier first day."
        }
    }

    static func reel(_ failure: ReelFailure) -> String {
        switch failure {
        case .targetExists(let path):
            "\(path) already exists: make the reel under a new name. It was not changed."
        case .loudnessOutOfRange(let lufs):
            "a loudness of \(Setting.Rule.format(lufs)) LUFS is out of range: give -40 to -5 (-16 for phones, -23 for broadcast)."
        case .cardSecondsOutOfRange(let seconds):
            "a title card of \(Setting.Rule.format(seconds)) s is out of range: give 0.5 to 10."
        case .fadeOutOfRange(let seconds):
            "a fade of \(Setting.Rule.format(seconds)) s is out of range: give 0 (cuts) to 2 seconds."
        case .unreadableVideo:
            "its video cannot be read: \(cause(failure))"
        case .nothingToShow(let since, let prompt, let store, let skipped):
            "no post made since \(since)\(prompt.map { " answering \"\($0)\"" } ?? "") in \(store) can go into a reel\(unreadable(skipped)): choose an earlier first day\(prompt == nil ? "" : ", or another question")."
        case .cannotMakeScratch(let path, let code):
            "cannot make \(path) beside the reel: \(errno(code)). Choose a writable directory."
        case .cannotPlace(let target, _):
            "cannot put the reel at \(target): \(cause(failure))"
        case .cannotAdd(let id, _):
            "post \(id) cannot be added to the reel: \(cause(failure)) The reel was not made; hide the post (the operator page's Hide) and make it again."
        case .cannotMakeDirectory(let path, let detail):
            "cannot make \(path) for the reel: \(detail). Check the cache directory (cache.path) is writable."
        }
    }

    /// " (2 could not be read: id: why; id: why)", or nothing.
    static func unreadable(_ skipped: [String: RecorderError]) -> String {
        skipped.isEmpty ? "" : " (\(skipped.count) could not be read: \(named(skipped)))"
    }

    /// "id: why; id: why", by id.
    package static func named(_ failures: [String: RecorderError]) -> String {
        failures.sorted { $0.key < $1.key }.map { "\($0.key): \(message($0.value))" }.joined(separator: "; ")
    }

    /// Why this machine's clock is not trusted to say which posts have expired, and what to do.
    package static func explanation(_ doubt: ClockDoubt) -> String {
        switch doubt {
        case .beforeRelease(let now, let release):
            "this machine's clock says \(now), before this version of recorder was made (\(release)): it has lost the time (no real-time clock, or its battery is flat). Set the time (timedatectl set-time, or a time server: timedatectl set-ntp true); expired posts are deleted once it is right."
        case .behindNewestPost(let now, let newest, let id):
            "this machine's clock says \(now), but post \(id) in the store was made at \(newest): one of the clocks is wrong. Check this machine's time (timedatectl) and that of the kiosk that made it; expired posts are deleted once the clocks agree."
        case .notSynchronised:
            "this machine's time service says the clock is not synchronised (timedatectl: System clock synchronized: no), so it may have jumped. Let it reach its time server (timedatectl timesync-status); expired posts are deleted once it is synchronised."
        }
    }
}
