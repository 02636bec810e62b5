import FoundationEssentials
import Glibc
package import Settings
package import SystemSupport
import Synchronization
import KioskWords
package import Failures
package import DurableFiles

/// The browsers logged in at `/login`, each a session the kiosk can end. A session is a random id
/// with its role, issue time and expiry; the cookie carries those, MACed (HMAC-SHA256) under a key
/// kept in the kiosk's state directory (`kiosk.state_dir/sessions.json`, with the sessions it
/// issued), never a token. So a cookie works only while its session is on the kiosk's list:
///
/// - `POST /logout` takes it off (a copy of the cookie opens nothing afterwards);
/// - an operator's session ends after `operatorIdle` without an operator's action (`touch`: a
///   request to an operator's route from a page a person is using; a page's background refresh,
///   and the booth's page asking every few seconds with the operator's cookie, are none); the
///   booth's screen stays logged in up to `lifetime` (a year);
/// - each role has its own places (`maximumSessions`): a role's login beyond them ends that role's
///   oldest session, never the other role's (the booth's token cannot log the operator out);
/// - each session remembers which token it was made with (by an HMAC of it under the key), so
///   changing a token ends its sessions;
/// - `recorder kiosk --end-sessions` (`endAll`) ends every one: a new key, an empty list. A kiosk
///   that is running notices within a second (it looks at the file once a second at most) and
///   every browser must log in again.
///
/// The list survives a restart (the booth's browser stays logged in); what a session last did is
/// written at most every `lastSeenGrain`, so a restart gives an idle operator session at most that
/// much more time. The file is only ever replaced whole, under a lock that `endAll` takes too.
package final class SessionStore: Sendable {
    package static let fileName = "sessions.json"
    static let lockName = ".sessions.lock"
    /// An operator's session ends after this long without a request.
    package static let operatorIdle: Int64 = 12 * 3600
    /// The longest a session lasts, by role.
    static func lifetime(_ role: KioskRole) -> Int64 { role == .booth ? 365 * 86_400 : 30 * 86_400 }
    /// Sessions kept, by role; a login beyond them ends that role's oldest (a token is needed for
    /// each). The booth's screen is one browser (two while it is replaced); the operator may use a
    /// few (the booth's screen, a laptop, a phone...).
    package static func maximumSessions(_ role: KioskRole) -> Int { role == .booth ? 2 : 32 }
    /// How stale the file's `lastSeen` may be.
    static let lastSeenGrain: Int64 = 600

    /// One session as the file keeps it (times in seconds since 1970).
    struct Session: Codable, Sendable, Equatable {
        var id: String
        var role: KioskRole
        var issuedAt: Int64
        var expiresAt: Int64
        var lastSeen: Int64
        /// The HMAC of the role's token it was made with, under the key.
        var token: String
    }

    /// The file: the key (hex), keys retired by `endAll` (a cookie made under one is an ended
    /// session, not a forgery), and the sessions.
    struct Contents: Codable {
        var version = 1
        var key: String
        var retired: [String] = []
        var sessions: [Session] = []
    }

    /// What a cookie is.
    package enum Check: Sendable, Equatable {
        case valid(KioskRole)
        /// Made by this kiosk, but no longer a session: logged out, idle too long, expired, its
        /// token changed, or all sessions ended.
        case ended
        /// Not made by this kiosk (no valid MAC): a guess.
        case forged
    }

    private struct State {
        var contents: Contents
        /// The file as this process last wrote or read it: another writer (`endAll`) changes it.
        var file: FileStatus?
        var checkedAt: ContinuousClock.Instant?
        /// `lastSeen` as last written, per session.
        var written: [String: Int64] = [:]
    }

    package let directory: String
    private let tokens: [KioskRole: String]
    private let authenticate: Authenticator
    private let clock: any RecorderClock
    private let state: Mutex<State>
    private var path: String { directory + "/" + Self.fileName }

    /// Opens the sessions in `directory` (made, with a new key, when missing), for a kiosk whose
    /// tokens are `tokens`: sessions made with another token, or expired, are dropped. Cookies and
    /// tokens are MACed with `authenticate` (libcrypto's HMAC-SHA256: `MessageAuthentication`).
    package init(directory: String, tokens: [KioskRole: String], clock: any RecorderClock = .system,
                 authenticate: @escaping Authenticator) throws(RecorderError) {
        self.directory = directory
        self.tokens = tokens
        self.clock = clock
        self.authenticate = authenticate
        let loaded = try Self.locked(directory) { () throws(RecorderError) -> (Contents, FileStatus?) in
            var contents = try Self.read(directory) ?? Contents(key: Self.newKey())
            let before = contents.sessions.count
            let now = Int64(clock.date.timeIntervalSince1970)
            contents.sessions.removeAll { !Self.live($0, now: now, key: contents.key, tokens: tokens, authenticate) }
            if contents.sessions.count != before || FileSystem.status(of: directory + "/" + Self.fileName) == nil {
                try Self.write(contents, directory)
            }
            return (contents, FileSystem.status(of: directory + "/" + Self.fileName))
        }
        state = Mutex(State(contents: loaded.0, file: loaded.1,
                            written: Dictionary(loaded.0.sessions.map { ($0.id, $0.lastSeen) }, uniquingKeysWith: { a, _ in a })))
    }

    // MARK: - Sessions

    /// A new session for `role`: its cookie value and how long the browser may keep it.
    package func begin(_ role: KioskRole) async throws(RecorderError) -> (cookie: String, seconds: Int64) {
        let now = Int64(clock.date.timeIntervalSince1970)
        let session = try await change { contents throws(RecorderError) -> Session in
            guard let token = self.tokens[role] else {
                throw .kiosk(.noTokenFor(role: role.rawValue))
            }
            let session = Session(id: Self.randomHex(16), role: role, issuedAt: now, expiresAt: now + Self.lifetime(role), lastSeen: now,
                                  token: Self.fingerprint(role, token, key: contents.key, self.authenticate))
            contents.sessions.removeAll { !Self.live($0, now: now, key: contents.key, tokens: self.tokens, self.authenticate) }
            // Only this role's own places: the oldest of them goes.
            let mine = contents.sessions.filter { $0.role == role }.sorted { ($0.issuedAt, $0.lastSeen) < ($1.issuedAt, $1.lastSeen) }
            let ending = Set(mine.prefix(max(0, mine.count + 1 - Self.maximumSessions(role))).map(\.id))
            contents.sessions.removeAll { ending.contains($0.id) }
            contents.sessions.append(session)
            return session
        }
        let key = state.withLock { $0.contents.key }
        return (Self.cookie(session, key: key, authenticate), session.expiresAt - now)
    }

    /// Ends the session `cookie` names (a logout); a cookie that names none changes nothing.
    package func end(cookie: String) async throws(RecorderError) {
        guard case .valid = await check(cookie, touch: false), let id = Self.parse(cookie)?.id else { return }
        _ = try await change { contents throws(RecorderError) in contents.sessions.removeAll { $0.id == id } }
    }

    /// An operator's action with the session of `cookie`: its idle time starts again. (A request
    /// that is no action, a page's background refresh, only `check`s.)
    package func touch(_ cookie: String) async {
        _ = await check(cookie, touch: true)
    }

    /// What `cookie` is now; with `touch`, a valid session's idle time starts again.
    package func check(_ cookie: String, touch: Bool = false) async -> Check {
        await reloadIfChanged()
        let now = Int64(clock.date.timeIntervalSince1970)
        guard let parsed = Self.parse(cookie) else { return .forged }
        var persist = false
        let check = state.withLock { state -> Check in
            let contents = state.contents
            guard ConstantTime.equal(parsed.mac, Self.mac(parsed.signed, key: contents.key, authenticate)) else {
                return contents.retired.contains { ConstantTime.equal(parsed.mac, Self.mac(parsed.signed, key: $0, authenticate)) } ? .ended : .forged
            }
            guard let index = contents.sessions.firstIndex(where: { $0.id == parsed.id }) else { return .ended }
            let session = contents.sessions[index]
            guard session.role == parsed.role, session.issuedAt == parsed.issuedAt, session.expiresAt == parsed.expiresAt,
                  Self.live(session, now: now, key: contents.key, tokens: tokens, authenticate) else { return .ended }
            if touch {
                state.contents.sessions[index].lastSeen = now
                persist = now - (state.written[session.id] ?? 0) >= Self.lastSeenGrain
                // (one write per grain, however many requests come before it is done)
                if persist { state.written[session.id] = now }
            }
            return .valid(session.role)
        }
        if persist {
            // Written in the background: the request does not wait for the disk.
            Task { _ = try? await self.change { _ throws(RecorderError) in } }
        }
        return check
    }

    /// How many sessions there are, by role.
    package var count: [KioskRole: Int] {
        state.withLock { Dictionary(grouping: $0.contents.sessions, by: \.role).mapValues(\.count) }
    }

    /// Ends every session of the kiosk whose state is in `directory` (running or not): a new key,
    /// an empty list, the old key kept to tell its cookies from forgeries. When run as root (an
    /// operator with sudo), the file stays the service's (its owner is the directory's). Returns
    /// how many sessions were ended.
    @discardableResult
    package static func endAll(directory: String) throws(RecorderError) -> Int {
        try locked(directory) { () throws(RecorderError) -> Int in
            let old = try read(directory)
            var contents = Contents(key: newKey())
            if let old { contents.retired = Array(([old.key] + old.retired).prefix(2)) }
            try write(contents, directory)
            return old?.sessions.count ?? 0
        }
    }

    /// Whether `session` may still be used at `now` with the kiosk's `tokens`.
    private static func live(_ session: Session, now: Int64, key: String, tokens: [KioskRole: String], _ authenticate: Authenticator) -> Bool {
        guard now < session.expiresAt, let token = tokens[session.role],
              ConstantTime.equal(session.token, fingerprint(session.role, token, key: key, authenticate)) else { return false }
        return session.role != .operator || now - session.lastSeen <= operatorIdle
    }

    // MARK: - The file

    /// Applies `body` to the file's contents under the lock, after reading what another process
    /// may have written, and writes the result; the list in memory follows.
    private func change<T: Sendable>(_ body: @escaping @Sendable (inout Contents) throws(RecorderError) -> T) async throws(RecorderError) -> T {
        let directory = self.directory
        let memory = state.withLock { ($0.contents, $0.file) }
        let (result, contents, file) = try await BlockingWork.run { () throws(RecorderError) -> (T, Contents, FileStatus?) in
            try Self.locked(directory) { () throws(RecorderError) -> (T, Contents, FileStatus?) in
                let path = directory + "/" + Self.fileName
                // What another process wrote wins (a new key ends every session); else what this
                // one knows, with the idle times it has seen since.
                var contents = FileSystem.status(of: path) == memory.1 ? memory.0 : (try Self.read(directory) ?? memory.0)
                let result = try body(&contents)
                try Self.write(contents, directory)
                return (result, contents, FileSystem.status(of: path))
            }
        }
        state.withLock { state in
            state.contents = contents
            state.file = file
            state.written = Dictionary(contents.sessions.map { ($0.id, $0.lastSeen) }, uniquingKeysWith: { a, _ in a })
        }
        return result
    }

    /// Reads the file again when another process changed it (at most once a second).
    private func reloadIfChanged() async {
        let now = clock.now
        let due = state.withLock { state -> FileStatus?? in
            if let checked = state.checkedAt, now - checked < .seconds(1) { return nil }
            state.checkedAt = now
            return .some(state.file)
        }
        guard let known = due else { return }
        let directory = self.directory
        let fresh = await BlockingWork.run { () -> (Contents, FileStatus?)? in
            let status = FileSystem.status(of: directory + "/" + Self.fileName)
            guard status != known else { return nil }
            // Unreadable or gone: nobody's session holds (an emptied list, a new key).
            let contents = (try? Self.read(directory)) ?? nil
            return (contents ?? Contents(key: Self.newKey()), status)
        }
        guard let fresh else { return }
        state.withLock { state in
            state.contents = fresh.0
            state.file = fresh.1
            state.written = Dictionary(fresh.0.sessions.map { ($0.id, $0.lastSeen) }, uniquingKeysWith: { a, _ in a })
        }
    }

    private static func locked<T>(_ directory: String, _ body: () throws(RecorderError) -> T) throws(RecorderError) -> T {
        do throws(FileSystem.Failure) {
            try FileSystem.createDirectories(directory, mode: 0o700)
        } catch {
            throw DurableFile.ioError(error.operation, error.path, code: error.errno.code)
        }
        let lock = try FileLock(path: directory + "/" + lockName, busy: nil)
        let result = try body()
        _ = consume lock
        return result
    }

    /// The file's contents; nil when there is none. A damaged file is an error (it is replaced
    /// with a new key: every session ends).
    private static func read(_ directory: String) throws(RecorderError) -> Contents? {
        let path = directory + "/" + fileName
        guard let data = FileSystem.dataIfReadable(path) else { return nil }
        guard let contents = try? JSONDecoder().decode(Contents.self, from: data), contents.key.utf8.count == 64 else {
            // Nothing in it can be believed: it starts again, empty, under a new key.
            return Contents(key: newKey())
        }
        return contents
    }

    private static func write(_ contents: Contents, _ directory: String) throws(RecorderError) {
        let path = directory + "/" + fileName
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data: Data
        // (a list of strings and numbers always encodes)
        do { data = try encoder.encode(contents) } catch { throw RecorderError.wrap(error) }
        try DurableFile.write(data, to: path)
        // Readable by the kiosk alone; and when root ends the sessions, still the service's file.
        try DurableFile.run("chmod", path) { () throws(Descriptors.Errno) in try Posix.chmod(path, 0o600) }
        if Posix.effectiveUserID == 0 {
            let directoryInfo = try DurableFile.run("stat", directory) { () throws(Descriptors.Errno) in try Posix.status(of: directory) }
            for file in [path, directory + "/" + lockName] {
                try DurableFile.run("chown", file) { () throws(Descriptors.Errno) in
                    try Posix.chown(file, owner: directoryInfo.owner, group: directoryInfo.group)
                }
            }
        }
    }
}
