import FoundationEssentials
import Glibc
import Shooting
import SystemSupport
import ShotValues

extension PostEnqueuer.Plan {
    /// The consent text the shot's guest agreed to (its `consent.txt`), when it was recorded under one.
    package var consentText: String? {
        guard shot.consent != nil else { return nil }
        let path = FilePaths.join(FilePaths.directory(of: shot.videoPath), Consent.textFileName)
        guard let fd = try? Posix.open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        defer { Posix.closeAfterUse(fd) }
        return (try? Posix.readAll(fd, limit: 1 << 20)).flatMap { String(validating: $0, as: UTF8.self) }
    }
}
