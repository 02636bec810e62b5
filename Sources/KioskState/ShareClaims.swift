package import FoundationEssentials
import Glibc
import Settings
import Shooting
import Publishing
import Library
package import SystemSupport
import Synchronization
import Publishing

/// Which phone may delete a shared post: the one that first opened its link while the booth's
/// thank-you screen showed it (`ShareWindow`), minutes after the post. That phone is given a random
/// secret as an `HttpOnly` cookie for the link's own path (`recorder_delete`), and the kiosk keeps
/// the secret's SHA-256 in `kiosk.state_dir/claims/<post id>`, made with `O_EXCL`, so only the
/// first opener ever gets one. A link forwarded to a friend, photographed off the booth's screen
/// later, or read from a proxy's log views the post and cannot delete it: deleting takes what only
/// that phone holds. (Why this and not a code on the thank-you screen: docs/security.md.)
///
/// Every call reads or writes a file: callers run them off the cooperative pool.
package final class ShareClaims: Sendable {
    package static let cookieName = "recorder_delete"
    /// A claim outlives every share link (`share.expires_hours` is at most 168).
    static let keepSeconds = 8.0 * 86_400

    let directory: String
    private let prunedAt = Mutex<Date?>(nil)

    package init(directory: String) {
        self.directory = directory
    }

    private func path(_ id: String) -> String { directory + "/" + id }

    /// Claims post `id` for the phone asking now: its new secret, or nil when another phone (or
    /// this one, earlier) claimed it already. A claim that cannot be written is an error (errno
    /// kept): the phone gets none, and the kiosk says why.
    package func claim(_ id: String, now: Date = Date()) throws(FileSystem.Failure) -> String? {
        guard PostID.isValid(id) else { return nil }
        pruneIfDue(now: now)
        try FileSystem.createDirectories(directory, mode: 0o700)
        var generator = SystemRandomNumberGenerator()
        let secret = (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }.hex
        let path = path(id)
        let fd: Int32
        do throws(FileSystem.Failure) {
            // O_EXCL: of two phones opening the link at once, one makes the file, the other is told it exists.
            fd = try FileSystem.run("create", path) { () throws(Descriptors.Errno) in
                try Posix.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o600)
            }
        } catch {
            if error.errno.code == EEXIST { return nil }
            throw error
        }
        let record = Array(MessageAuthentication.sha256Hex(Array(secret.utf8)).utf8)
        do throws(FileSystem.Failure) {
            try FileSystem.run("write", path) { () throws(Descriptors.Errno) in try Posix.writeAll(fd, record) }
            try FileSystem.run("fsync", path) { () throws(Descriptors.Errno) in try Posix.fsync(fd) }
        } catch {
            Posix.closeAfterUse(fd)
            // The write's failure is the one to report; a half-written claim must not stay.
            try? Posix.unlink(path)
            throw error
        }
        // (fsync succeeded: nothing close could report concerns the claim)
        Posix.closeAfterUse(fd)
        return secret
    }

    /// Whether `secret` (a `recorder_delete` cookie) is post `id`'s claim, compared in constant time.
    package func holds(_ id: String, secret: String?) -> Bool {
        guard let secret, !secret.isEmpty, PostID.isValid(id),
              let stored = FileManager.default.contents(atPath: path(id)) else { return false }
        return ShareToken.equal(String(decoding: stored, as: UTF8.self), MessageAuthentication.sha256Hex(Array(secret.utf8)))
    }

    /// Post `id` left the store: its claim goes too.
    package func forget(_ id: String) {
        guard PostID.isValid(id) else { return }
        // (a claim already gone is what was wanted)
        try? Posix.unlink(path(id))
    }

    /// Removes claims older than any link, at most once an hour.
    private func pruneIfDue(now: Date) {
        let due = prunedAt.withLock { last -> Bool in
            if let last, now.timeIntervalSince(last) < 3600 { return false }
            last = now
            return true
        }
        guard due, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return }
        for name in names where PostID.isValid(name) {
            // (one that cannot be removed now is tried again at the next prune)
            if let status = FileSystem.status(of: path(name)), now.timeIntervalSince1970 - status.modified > Self.keepSeconds { try? Posix.unlink(path(name)) }
        }
    }

    /// `Set-Cookie` handing `secret` to the phone, for the link at `linkPath` alone, until `expires`.
    package static func setCookie(_ secret: String, linkPath: String, seconds: Int, secure: Bool) -> String {
        "\(cookieName)=\(secret); Path=\(linkPath); Max-Age=\(max(seconds, 0)); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }
}
