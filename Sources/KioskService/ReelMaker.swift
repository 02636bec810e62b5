import FoundationEssentials
import Glibc
import Logging
import Settings
import Shooting
import Library
import Synchronization
import SystemSupport
import KioskWords
import Failures
import Posting

/// The operator's "Make the reel": `HighlightReel` run by the kiosk, one at a time, on a thread of
/// its own at a lower priority than the booth (a reel takes minutes; a guest's recording must not
/// drop a frame for it). The latest finished reel is kept in the cache directory (`reels/`) for the
/// operator page to play and download; a new one replaces it only once it is whole.
final class ReelMaker: Sendable {
    /// What the operator page shows: the last run, and the reel there is to play.
    struct Status: Sendable, Encodable, Equatable {
        /// idle, making, done, failed: the last run.
        var state = "idle"
        var since: String?
        var prompt: String?
        /// The step under way ("adding 3/12: <id> ..."), while making.
        var step: String?
        /// Why the last run made no reel, and the posts it left out (id: why).
        var error: String?
        var skipped: [String: String]?
        /// The reel /api/admin/reel.mp4 serves (the last one made, a failed run leaves it), if any.
        var latest: Reel?
        /// When the event's first post was made (RFC 3339): where the page's "Posts from" starts,
        /// and where a reel asked for with no first day starts. Not looked up while making.
        var firstPostAt: String?
    }

    struct Reel: Sendable, Encodable, Equatable {
        var posts: Int?
        var seconds: Double?
        var bytes: Int64?
        var madeAt: String?
        var since: String?
    }

    /// The reels' own thread (a test holds it to see the one-at-a-time rule).
    static let work = BlockingWork(name: "recorder-reel", threads: 1)
    private let directory: String
    private let library: KioskLibrary
    private let configuration: RecorderConfiguration
    private let logger: Logger
    /// The kiosk's: what a reel's time is stamped with.
    private let clock: any RecorderClock
    private let state = Mutex(Status())
    /// The latest finished reel's file.
    private let latest = Mutex<String?>(nil)

    init(library: KioskLibrary, configuration: RecorderConfiguration, logger: Logger, clock: any RecorderClock) {
        directory = library.cache.settings.directory + "/reels"
        self.clock = clock
        self.library = library
        self.configuration = configuration
        self.logger = logger
        // A reel made before a restart is still there to play.
        if let names = try? DirectoryListing.names(in: directory) {
            let reels = names.filter { $0.hasPrefix("reel-") && $0.hasSuffix(".mp4") }.sorted()
            // (half-made ones from a run that stopped are removed: only finished reels have this name)
            for name in names where name.contains(".partial-") { Self.remove("\(directory)/\(name)") }
            if let newest = reels.last {
                let path = "\(directory)/\(newest)"
                latest.withLock { $0 = path }
                let made = FileSystem.status(of: path).map { Date(timeIntervalSince1970: $0.modified) }
                state.withLock { $0.latest = Reel(bytes: FileSystem.size(of: path), madeAt: made.map(RFC3339.string)) }
            }
        }
    }

    var status: Status { state.withLock { $0 } }
    var file: String? { latest.withLock { $0 } }

    /// Starts a reel of the posts since `since`; false when one is being made already.
    func start(since: Date, prompt: String?) -> Bool {
        let started = state.withLock { status -> Bool in
            guard status.state != "making" else { return false }
            status = Status(state: "making", since: RFC3339.string(since), prompt: prompt, step: "starting", latest: status.latest)
            return true
        }
        guard started else { return false }
        let (directory, logger, configuration, library) = (self.directory, self.logger, self.configuration, self.library)
        Self.work.submit { [self] in
            // Below the booth: on Linux a nice value is per thread, and who = 0 is this thread alone (the
            // encoder's own threads, started from it, inherit it); the pool's one thread does only reels.
            // A refusal only leaves the reel at the booth's priority.
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
            var options = HighlightReel.Options(since: since)
            options.prompt = prompt
            let outcome: Result<(HighlightReel.Report, String), RecorderError>
            do throws(RecorderError) {
                options.encoder = try ShotRequest.encoderSettings(configuration)
                // (the cache's own directory too, when nothing was played through it yet)
                do throws(FileSystem.Failure) {
                    try FileSystem.createDirectories(directory)
                } catch {
                    throw .reel(.cannotMakeDirectory(path: directory, detail: error.errno.description))
                }
                let target = "\(directory)/reel-\(RFC3339.string(clock.date).filter { $0.isNumber }).mp4"
                let reel = HighlightReel(feed: library.feed, cache: library.cache)
                let report = try reel.make(into: target, options: options) { step in
                    self.state.withLock { $0.step = step }
                }
                outcome = .success((report, target))
            } catch {
                outcome = .failure(error)
            }
            switch outcome {
            case .success(let (report, target)):
                let previous = latest.withLock { old -> String? in
                    defer { old = target }
                    return old
                }
                if let previous, previous != target { Self.remove(previous) }
                state.withLock {
                    $0 = Status(state: "done", since: $0.since, prompt: $0.prompt, skipped: report.skipped.isEmpty ? nil : report.skipped.mapValues { $0.message },
                                latest: Reel(posts: report.posts.count, seconds: report.seconds, bytes: FileSystem.size(of: target),
                                             madeAt: RFC3339.string(clock.date), since: $0.since))
                }
                logger.notice("highlight reel made: \(report.posts.count) post(s), \(String(cFormat: "%.1f", report.seconds)) s\(report.skipped.isEmpty ? "" : "; left out: \(OperatorWords.named(report.skipped))")")
            case .failure(let error):
                state.withLock { $0 = Status(state: "failed", since: $0.since, prompt: $0.prompt, error: error.message, latest: $0.latest) }
                logger.warning("highlight reel not made: \(error.message)")
            }
        }
        return true
    }

    private static func remove(_ path: String) {
        if FileSystem.status(of: path)?.isDirectory == true {
            FileSystem.removeScratch(path)
        } else {
            // Best effort, as the scratch's: an old reel that stays is removed the next time.
            try? Posix.unlink(path)
        }
    }
}
