package import FoundationEssentials
#if canImport(Glibc)
import Glibc
#endif
package import SystemSupport
import StorageUpload
import MailValues
import Settings

/// The outbox's mail: `mail/queue/<id>.json` for each mail waiting (a `MailJob`, with its address),
/// `mail/sent/<id>.json` for each one sent (a `MailReceipt`, without it). Every file is written
/// whole (a temporary name, fsync, rename, fsync of the directory), so a kill -9 or a power cut
/// leaves a job or a record, never half of one.
///
/// Sending once as far as SMTP can tell: before a mail goes out its record is written, synced,
/// under a hidden name (`sent/.pending-<id>.json`); the server's 2xx to the message renames it into
/// place the moment it is read, before the conversation's goodbye, and only then does the job go.
/// A job that has a record was sent: whatever finds it so (the next pass, after a crash) removes
/// the job and never sends it again. What remains: a process killed between the server's 2xx
/// leaving the server and that rename (the reply in flight, or read and not yet acted on) sends the
/// mail again on its next pass, with the same Message-ID, which mail programs show once.
package struct MailQueue: Sendable {
    package let root: String

    package init(outboxRoot: String) {
        root = outboxRoot + "/mail"
    }

    var queueDirectory: String { root + "/queue" }
    var sentDirectory: String { root + "/sent" }

    /// Makes the queue's directories (and the outbox's, on a first use: `recorder post --email`
    /// queues the mail before the post).
    package func prepare() throws(FileSystem.Failure) {
        try FileSystem.createDirectories(FilePaths.directory(of: root), mode: 0o700)
        for dir in [root, queueDirectory, sentDirectory] { try FileSystem.makeDirectory(dir, mode: 0o700) }
    }

    private func jobPath(_ id: String) -> String { "\(queueDirectory)/\(id).json" }
    private func receiptPath(_ id: String) -> String { "\(sentDirectory)/\(id).json" }
    private func pendingPath(_ id: String) -> String { "\(sentDirectory)/.pending-\(id).json" }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private func write(_ value: some Encodable, to path: String) throws(FileSystem.Failure) {
        let data: Data
        do { data = try Self.encoder.encode(value) } catch {
            // (these records are strings and numbers: encoding cannot fail)
            throw FileSystem.Failure("encode", path, Descriptors.Errno(EINVAL))
        }
        try FileSystem.writeDurably(Array(data), to: path)
    }

    private static func read<T: Decodable>(_ type: T.Type, at path: String) -> T? {
        guard let bytes = try? readFile(path) else { return nil }
        return try? JSONDecoder().decode(type, from: Data(bytes))
    }

    private static func readFile(_ path: String) throws(Descriptors.Errno) -> [UInt8] {
        let fd = try Posix.open(path, O_RDONLY | O_CLOEXEC)
        defer { Posix.closeAfterUse(fd) }
        return try Posix.readAll(fd, limit: 1 << 20)
    }

    private func names(in directory: String) -> [String] {
        DirectoryListing.namesIfReadable(directory).filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted()
    }

    // MARK: Jobs

    /// A new job's id: random, not used by a job or record here.
    package func newID() -> String {
        while true {
            let id = PostID.random()
            if FileSystem.status(of: jobPath(id)) == nil && FileSystem.status(of: receiptPath(id)) == nil { return id }
        }
    }

    /// Queues `job` durably.
    package func add(_ job: MailJob) throws(FileSystem.Failure) {
        try prepare()
        try write(job, to: jobPath(job.id))
    }

    /// Every job, oldest first.
    package func jobs() -> [MailJob] {
        names(in: queueDirectory).compactMap { Self.read(MailJob.self, at: "\(queueDirectory)/\($0)")?.maskingReplies }
            .sorted { ($0.queuedAt, $0.id) < ($1.queuedAt, $1.id) }
    }

    /// Job files that cannot be read (damaged by hand or by the disk): kept, never sent, reported.
    package func unreadableJobs() -> [String] {
        names(in: queueDirectory).map { "\(queueDirectory)/\($0)" }.filter { Self.read(MailJob.self, at: $0) == nil }
    }

    package func job(id: String) -> MailJob? {
        Self.read(MailJob.self, at: jobPath(id))?.maskingReplies
    }

    package func save(_ job: MailJob) throws(FileSystem.Failure) {
        try withJobsLocked { () throws(FileSystem.Failure) in try write(job, to: jobPath(job.id)) }
    }

    /// Writes `job` back only if it is still queued: a guest's or the operator's delete may have
    /// removed it while a sender had it in hand, and a job written back would be sent for a post
    /// that is gone. False when it is gone.
    @discardableResult
    package func update(_ job: MailJob) throws(FileSystem.Failure) -> Bool {
        try withJobsLocked { () throws(FileSystem.Failure) -> Bool in
            guard FileSystem.status(of: jobPath(job.id)) != nil else { return false }
            try write(job, to: jobPath(job.id))
            return true
        }
    }

    /// Removes job `id` (its address with it). False when it was not there.
    @discardableResult
    package func remove(jobID id: String) throws(FileSystem.Failure) -> Bool {
        try withJobsLocked { () throws(FileSystem.Failure) -> Bool in
            do throws(Descriptors.Errno) { try Posix.unlink(jobPath(id)) } catch {
                if error.code == ENOENT { return false }
                throw FileSystem.Failure("remove", jobPath(id), error)
            }
            try FileSystem.syncDirectory(of: jobPath(id))
            return true
        }
    }

    /// A job's file is written or removed under this short lock (across the kiosk's threads and
    /// the CLI's processes), so `update`'s look and its write are one step against a removal.
    private func withJobsLocked<T>(_ body: () throws(FileSystem.Failure) -> T) throws(FileSystem.Failure) -> T {
        try prepare()
        let lock = try MailLock(path: root + "/.jobs.lock")
        let result = try body()
        _ = consume lock
        return result
    }

    // MARK: Sending once

    /// Before `job` goes out: its record, synced under a hidden name, for `confirm` to put in place.
    func preparePending(_ job: MailJob) throws(FileSystem.Failure) {
        let receipt = MailReceipt(id: job.id, postID: job.postID, postCreatedAt: job.postCreatedAt,
                                  address: job.keepAddress ? job.address : nil, consentSha256: job.consentSha256)
        let data: Data
        do { data = try Self.encoder.encode(receipt) } catch { throw FileSystem.Failure("encode", pendingPath(job.id), Descriptors.Errno(EINVAL)) }
        try FileSystem.writeSynced(Array(data), to: pendingPath(job.id))
    }

    /// The server took `job`'s mail: its record goes into place (one rename), then the directory
    /// is synced. Called the moment the server's 2xx is read.
    func confirm(_ job: MailJob) throws(FileSystem.Failure) {
        try FileSystem.renameDurably(pendingPath(job.id), to: receiptPath(job.id), operation: "record the sent mail")
    }

    /// The attempt did not get the mail through: its pending record goes.
    func abandonPending(_ job: MailJob) {
        // (a leftover is hidden, and removed by the next pass's `finishInterrupted`)
        try? Posix.unlink(pendingPath(job.id))
    }

    /// Completes the record of a sent mail with its time and the server's reply, and removes its
    /// job; the record alone already says it was sent.
    func completeSent(_ job: MailJob, reply: SMTPReply, at sentAt: String) throws(FileSystem.Failure) {
        var receipt = Self.read(MailReceipt.self, at: receiptPath(job.id))
            ?? MailReceipt(id: job.id, postID: job.postID, postCreatedAt: job.postCreatedAt,
                           address: job.keepAddress ? job.address : nil, consentSha256: job.consentSha256)
        receipt.sentAt = sentAt
        receipt.reply = reply
        try write(receipt, to: receiptPath(job.id))
        try remove(jobID: job.id)
    }

    /// After a crash: a job whose record is in place was sent (the record came first) and goes
    /// now; pending records of attempts that ended without a 2xx go too. Call it holding `lock()`.
    func finishInterrupted() {
        for name in DirectoryListing.namesIfReadable(sentDirectory) where name.hasPrefix(".pending-") {
            // (hidden, and tried again at the next pass when it cannot go now)
            try? Posix.unlink("\(sentDirectory)/\(name)")
        }
        FileSystem.removeAbandonedTemporaries(in: queueDirectory, kind: "tmp")
        FileSystem.removeAbandonedTemporaries(in: sentDirectory, kind: "tmp")
        for name in names(in: queueDirectory) where FileSystem.status(of: "\(sentDirectory)/\(name)") != nil {
            // (sent already; one that cannot go now is found again by the next pass, never sent)
            try? Posix.unlink("\(queueDirectory)/\(name)")
        }
    }

    /// One sender at a time (the kiosk's and `recorder outbox flush`): waits its turn.
    func lock() throws(FileSystem.Failure) -> MailLock {
        try prepare()
        return try MailLock(path: root + "/.lock")
    }

    // MARK: Records

    /// The records of sent mail, oldest first.
    package func receipts() -> [MailReceipt] {
        names(in: sentDirectory).compactMap { Self.read(MailReceipt.self, at: "\(sentDirectory)/\($0)") }
            .sorted { ($0.sentAt ?? "", $0.id) < ($1.sentAt ?? "", $1.id) }
    }

    /// How many mails were sent (the records), without reading them.
    package var sentCount: Int { names(in: sentDirectory).count }

    /// Addresses kept for post `id` under a consent text that asked for them.
    package func keptAddresses(postID: String) -> [String] {
        receipts().filter { $0.postID == postID }.compactMap(\.address)
    }

    /// What `forget` removed.
    package struct Forgotten: Sendable, Equatable {
        /// Jobs removed, never to be sent.
        package var jobs: [String] = []
        /// Records whose kept address was removed.
        package var addresses: [String] = []
    }

    /// A post is gone (its guest deleted it, the operator did, or it expired): its jobs go, never
    /// to be sent, and the addresses its records kept. The records stay, as the count of mails sent.
    @discardableResult
    package func forget(postID: String) -> Forgotten {
        forget { $0 == postID }
    }

    /// The same for every post made before `cutoff` (retention.days); with `dryRun`, what would
    /// be forgotten, and nothing is.
    @discardableResult
    package func forget(postsMadeBefore cutoff: Date, dryRun: Bool = false) -> Forgotten {
        func expired(_ createdAt: String) -> Bool { (RFC3339.date(createdAt) ?? .distantFuture) < cutoff }
        let jobs = jobs().filter { expired($0.postCreatedAt) }
        let receipts = receipts().filter { $0.address != nil && expired($0.postCreatedAt) }
        if dryRun { return Forgotten(jobs: jobs.map(\.id), addresses: receipts.map(\.id)) }
        let posts = Set(jobs.map(\.postID) + receipts.map(\.postID))
        return posts.isEmpty ? Forgotten() : forget { posts.contains($0) }
    }

    private func forget(_ matches: (String) -> Bool) -> Forgotten {
        var gone = Forgotten()
        for job in jobs() where matches(job.postID) {
            // (one that cannot be removed now is tried again by the next sweep; a sender checks
            // that its post is there before each attempt)
            if (try? remove(jobID: job.id)) == true { gone.jobs.append(job.id) }
        }
        for var receipt in receipts() where matches(receipt.postID) && receipt.address != nil {
            receipt.address = nil
            if (try? write(receipt, to: receiptPath(receipt.id))) != nil { gone.addresses.append(receipt.id) }
        }
        return gone
    }

    /// Records of mail sent before `cutoff` (retention.local_days), removed unless `dryRun`: their ids.
    package func removeReceipts(sentBefore cutoff: Date, dryRun: Bool) -> [String] {
        var gone: [String] = []
        for name in names(in: sentDirectory) {
            let path = "\(sentDirectory)/\(name)"
            let sent = Self.read(MailReceipt.self, at: path).flatMap { $0.sentAt.flatMap(RFC3339.date) }
                ?? FileSystem.status(of: path).map { Date(timeIntervalSince1970: $0.modified) }
            guard let sent, sent < cutoff else { continue }
            // (one that cannot be removed now is left for the next purge, and not reported gone)
            if !dryRun, (try? Posix.unlink(path)) == nil { continue }
            gone.append(String(name.dropLast(5)))
        }
        return gone
    }
}

/// An exclusive flock(2) on the mail queue's lock file, released with its owner.
struct MailLock: ~Copyable {
    private let fd: Int32

    init(path: String) throws(FileSystem.Failure) {
        let fd = try FileSystem.run("open", path) { () throws(Descriptors.Errno) in try Posix.open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600) }
        do throws(Descriptors.Errno) { try Posix.lock(fd, LOCK_EX) } catch {
            Posix.closeAfterUse(fd)
            throw FileSystem.Failure("lock", path, error)
        }
        self.fd = fd
    }

    // Closing releases the lock; nothing was written through this descriptor.
    deinit { Posix.closeAfterUse(fd) }
}
