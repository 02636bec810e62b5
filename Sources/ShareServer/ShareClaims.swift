package import FoundationEssentials
import Glibc
import Publishing
package import SystemSupport
import Synchronization

/// Which phone may delete a shared post: the one that first opened its link while the booth's
/// thank-you screen showed it (`ShareWindow`), minutes after the post. That phone is given a random
/// secret as an `HttpOnly` cookie for the link's own path (`recorder_delete`). A link forwarded to a
/// friend, photographed off the booth's screen later, or read from a proxy's log views the post
/// and cannot delete it: deleting takes what only that phone holds. (Why this and not a code on the
/// thank-you screen: docs/security.md.)
///
/// The secret is made when the booth posts (`prepare`): its SHA-256 goes into the post's metadata
/// (`PostMetadata.deleteClaim`), so any share server that reads the store can check the phone's
/// cookie, at home, after the booth is packed away; the secret itself waits in
/// `kiosk.state_dir/claims/<post id>.secret` until the first phone takes it. Taking it makes
/// `claims/<post id>` with `O_EXCL` (of two phones at once, one makes it, the other is told it
/// exists) and removes the secret: nobody gets it twice. A post from before claims were in the
/// metadata keeps its claim's hash in `claims/<post id>` alone, which only this booth reads.
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
    private func secretPath(_ id: String) -> String { directory + "/" + id + ".secret" }

    /// The SHA-256 (lowercase hex) of a claim's secret: what a post's metadata and a claim file hold.
    package static func hash(_ secret: String) -> String {
        MessageAuthentication.sha256Hex(Array(secret.utf8))
    }

    /// Makes post `id`'s claim as the booth posts it: a new secret, kept here until the first phone
    /// takes it; returns its hash, for the post's metadata. A secret that cannot be kept is an
    /// error (errno kept): the post then goes without one, and no phone may delete it.
    package func prepare(_ id: String, now: Date = Date()) throws(FileSystem.Failure) -> String? {
        guard PostID.isValid(id) else { return nil }
        pruneIfDue(now: now)
        try FileSystem.createDirectories(directory, mode: 0o700)
        let secret = Self.randomSecret()
        try FileSystem.writeDurably(Array(secret.utf8), to: secretPath(id))
        return Self.hash(secret)
    }

    /// Gives post `id`'s claim to the phone asking now: its secret, or nil when another phone (or
    /// this one, earlier) took it already. A claim that cannot be written is an error (errno
    /// kept): the phone gets none, and the kiosk says why.
    package func claim(_ id: String, now: Date = Date()) throws(FileSystem.Failure) -> String? {
        guard PostID.isValid(id) else { return nil }
        pruneIfDue(now: now)
        try FileSystem.createDirectories(directory, mode: 0o700)
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
        // The secret made with the post (its hash is in the metadata), or one of its own for a post
        // from before that.
        let prepared = FileSystem.dataIfReadable(secretPath(id)).map { String(decoding: $0, as: UTF8.self) }
        let secret = prepared.flatMap { $0.utf8.count == 64 ? $0 : nil } ?? Self.randomSecret()
        let record = Array(Self.hash(secret).utf8)
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
        // (the claim is taken: a secret left behind by a failed removal is pruned with the claims)
        try? Posix.unlink(secretPath(id))
        return secret
    }

    /// Whether `secret` (a `recorder_delete` cookie) is post `id`'s claim as this booth kept it,
    /// compared in constant time.
    package func holds(_ id: String, secret: String?) -> Bool {
        guard let secret, !secret.isEmpty, PostID.isValid(id),
              let stored = FileSystem.dataIfReadable(path(id)) else { return false }
        return ShareToken.equal(String(decoding: stored, as: UTF8.self), Self.hash(secret))
    }

    /// Post `id` left the store: its claim goes too.
    package func forget(_ id: String) {
        guard PostID.isValid(id) else { return }
        // (a claim already gone is what was wanted)
        try? Posix.unlink(path(id))
        // (the same for a secret nobody took)
        try? Posix.unlink(secretPath(id))
    }

    /// 32 random bytes as 64 hex digits.
    private static func randomSecret() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) }.hex
    }

    /// Removes claims and secrets older than any link, at most once an hour.
    private func pruneIfDue(now: Date) {
        let due = prunedAt.withLock { last -> Bool in
            if let last, now.timeIntervalSince(last) < 3600 { return false }
            last = now
            return true
        }
        guard due, let names = try? DirectoryListing.names(in: directory) else { return }
        for name in names where PostID.isValid(name.hasSuffix(".secret") ? String(name.dropLast(7)) : name) {
            // (one that cannot be removed now is tried again at the next prune)
            if let status = FileSystem.status(of: path(name)), now.timeIntervalSince1970 - status.modified > Self.keepSeconds { try? Posix.unlink(path(name)) }
        }
    }

    /// `Set-Cookie` handing `secret` to the phone, for the link at `linkPath` alone, until `expires`.
    package static func setCookie(_ secret: String, linkPath: String, seconds: Int, secure: Bool) -> String {
        "\(cookieName)=\(secret); Path=\(linkPath); Max-Age=\(max(seconds, 0)); HttpOnly; SameSite=Lax" + (secure ? "; Secure" : "")
    }
}
