import ArgumentParser
import FoundationEssentials
import Glibc
import Settings
import Publishing
import Library
import SystemSupport
import Failures
import StoreValues

/// `recorder fetch ID`: a posted video, through the cache.
struct FetchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fetch",
        abstract: "Download a post's video through the cache and print where it is.",
        discussion: "The video is checked against the SHA-256 in the post's metadata; a damaged cached copy is fetched again.")

    @Argument(help: "The post id, as `recorder feed` shows it.")
    var id: String

    @Option(name: .shortAndLong, help: ArgumentHelp("Also copy the video to this file; - writes it to standard output.", valueName: "file"))
    var output: String?

    @Flag(name: .shortAndLong, help: "No notes: print only the path.")
    var quiet = false

    @OptionGroup var store: StoreOptions
    @OptionGroup var format: OutputOptions

    func validate() throws {
        if output == "-" && format.json { throw ValidationError("-o - writes the video to standard output, where --json would go too: use one of them.") }
        guard PostID.isValid(id) else { throw ValidationError("'\(id)' is not a post id (10 letters and digits, as `recorder feed` shows them).") }
    }

    struct Result: Encodable {
        var id: String
        var path: String
        var bytes: Int64
        var from: VideoCache.Level
        var output: String?
        /// Why a cached copy was thrown away and fetched again: `{"case": "wrongSize", "id": ...,
        /// "size": 20000, "expected": 50000}` or `{"case": "wrongChecksum", "id": ...}`.
        var replaced: CaseData?
    }

    func run() throws { try execute() }

    private func execute() throws(RecorderError) {
        let configuration = try store.configuration()
        let backend = try configuration.makeBackend()
        let metadata = try PostFeed(store: backend).metadata(id: id)
        // One fetch per process: the memory level would only hold a copy nobody reads again.
        var settings = try configuration.videoCacheSettings()
        settings.maxMemoryBytes = 0
        settings.memoryEntryLimit = 0
        let cache = VideoCache(settings: settings)
        let video = try cache.video(for: metadata, from: backend)
        if let replaced = video.replaced, !quiet { printError("recorder: note: \(Self.words(replaced))") }
        if output == "-" {
            // As curl: the bytes to standard output, what happened to standard error.
            let fd: Int32
            do throws(Descriptors.Errno) { fd = try Posix.open(video.path, O_RDONLY | O_CLOEXEC) } catch {
                throw RecorderError(CLIFailure.cachedVideoUnreadable(path: video.path, errno: error.code))
            }
            defer { Posix.closeAfterUse(fd) }
            do throws(Descriptors.Errno) { try Posix.copyAll(from: fd, to: STDOUT_FILENO) } catch {
                throw RecorderError(CLIFailure.standardOutputClosed(errno: error.code))
            }
            printError("recorder: \(id): \(ByteCount.human(video.size)) from the \(video.level == .store ? "store (now cached)" : "cache") to standard output")
            return
        }
        if let output {
            try VideoCache.copy(video.path, to: output, elsewhere: .output)
        }
        if format.json {
            printJSON(Result(id: id, path: video.path, bytes: video.size, from: video.level, output: output,
                             replaced: video.replaced.map { CaseData(encoding: $0) }))
        } else {
            print(output ?? video.path)
            if !quiet { printError("recorder: \(id): \(ByteCount.human(video.size)) from the \(video.level == .store ? "store (now cached)" : "cache")") }
        }
    }
}

extension FetchCommand {
    /// Why the cached copy was fetched again, for the person running the command.
    static func words(_ replaced: VideoCache.Replaced) -> String {
        switch replaced {
        case .wrongSize(let id, let size, let expected):
            "the cached copy of \(id) had \(size) of \(expected) bytes; it was fetched again"
        case .wrongChecksum(let id):
            "the cached copy of \(id) did not match its SHA-256; it was fetched again"
        }
    }
}
