import ArgumentParser
import FoundationEssentials
import Settings
import Library
import SystemSupport
import Failures

/// `recorder cache`: what the video cache holds, and emptying it.
struct CacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cache",
        abstract: "Show or clear the video cache.",
        subcommands: [CacheListCommand.self, CacheClearCommand.self],
        defaultSubcommand: CacheListCommand.self)
}

struct CacheListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List cached videos, most recently used first.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    struct Listing: Encodable {
        var directory: String
        var usedBytes: Int64
        var maxBytes: Int64
        var entries: [VideoCache.Entry]
    }

    func run() throws { try execute() }

    private func execute() throws(RecorderError) {
        let settings = try store.configuration().videoCacheSettings()
        let cache = VideoCache(settings: settings)
        let entries = cache.entries()
        let used = entries.reduce(0) { $0 + $1.bytes }
        if output.json {
            printJSON(Listing(directory: settings.directory, usedBytes: used, maxBytes: settings.maxDiskBytes, entries: entries))
            return
        }
        print("\(settings.directory): \(entries.count) video(s), \(ByteCount.human(used)) of \(ByteCount.human(settings.maxDiskBytes))")
        for entry in entries {
            print("  \(entry.name.prefix(16))…  \(ByteCount.human(entry.bytes))  last used \(entry.lastUsed)")
        }
    }
}

struct CacheClearCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "clear", abstract: "Remove every cached video and print the space freed.")

    @OptionGroup var store: StoreOptions
    @OptionGroup var output: OutputOptions

    func run() throws { try execute() }

    private func execute() throws(RecorderError) {
        let settings = try store.configuration().videoCacheSettings()
        let report = VideoCache(settings: settings).clear()
        if output.json {
            printJSON(report)
        } else {
            print("freed \(ByteCount.human(report.bytes)) (\(report.bytes) bytes, \(report.files) file(s)) in \(settings.directory)")
        }
    }
}

