import ArgumentParser
import FoundationEssentials
import Settings
import Publishing
import Library
import SystemSupport
import Failures

/// `recorder export`: the event's posts for its hosts, in a new directory or ZIP archive.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Copy the posts made since a day into a new directory or ZIP archive for the event's hosts: videos, posters, metadata, consent texts, and a SHA256SUMS.",
        discussion: """
        Each post goes to DIRECTORY/<id>/: <id>.mp4 (checked against the SHA-256 in its metadata), poster.jpg, post.json and, \
        for a post recorded under a guest's consent (kiosk.consent), consent.txt: the text they agreed to, checked against its SHA-256. \
        DIRECTORY/SHA256SUMS lists every file as written: cd DIRECTORY && sha256sum -c SHA256SUMS. \
        With -o NAME.zip the same goes into a new ZIP archive under one folder NAME/ (stored, ZIP64 past 4 GiB): \
        unzip NAME.zip && cd NAME && sha256sum -c SHA256SUMS. \
        The directory must be new or empty, the archive new; either appears only when the export is whole. Posts the operator hid are left out. \
        A post that cannot be read is named and skipped (exit 65); the others are exported. \
        With --with-contacts, a post whose guest agreed to a consent text that asks to keep their address (a line starting with ✉) \
        and had their video mailed also gets <id>/contacts.txt: the addresses kept for it, one a line. Only this machine's \
        outbox holds them (run it on the kiosk); without the flag, and for every other post, no address is exported.
        """)

    @Option(name: .long, help: ArgumentHelp("Posts made at or after this: a day (2026-11-24, from midnight UTC) or a time (2026-11-24T18:00:00Z).",
                                            valueName: "day"))
    var since: Moment

    @Option(name: .shortAndLong, help: ArgumentHelp("The new directory, or a new archive when it ends in .zip (default: the directory recorder-export-DAY).", valueName: "directory|archive.zip"))
    var output: String?

    @Flag(name: .shortAndLong, help: "No progress lines.")
    var quiet = false

    @Flag(name: .customLong("with-contacts"), help: "Also the guests' addresses this machine kept for their mail, only for posts whose consent text asked to keep them.")
    var withContacts = false

    @OptionGroup var store: StoreOptions
    @OptionGroup var format: OutputOptions

    func run() throws { try execute() }

    private func execute() throws(RecorderError) {
        let configuration = try store.configuration()
        let backend = try configuration.makeBackend()
        let directory = output ?? "recorder-export-" + String(RFC3339.string(since.date).prefix(10))
        let mail = MailQueue(outboxRoot: configuration.outboxDirectory)
        var contacts: (@Sendable (String) -> [String])?
        if withContacts { contacts = { @Sendable id in mail.keptAddresses(postID: id) } }
        let export = PostExport(feed: PostFeed(store: backend), cache: try configuration.onePassVideoCache(), contacts: contacts)
        let report = try export.run(since: since.date, into: directory) { id in
            if !quiet && !format.json { printError("exported \(id)") }
        }
        if format.json {
            printJSON(report, answersFailure: !report.skipped.isEmpty)
        } else {
            print("exported \(report.exported.count) post(s) made since \(report.since) to \(directory): \(report.files) files, \(ByteCount.human(report.bytes))\(withContacts ? ", \(report.contacts) address(es) kept under consent" : "")")
            if report.format == "zip" {
                let folder = String(FilePaths.name(of: directory).dropLast(4))
                print("check it: unzip \(directory) && cd \(folder) && sha256sum -c SHA256SUMS")
            } else {
                print("check it: cd \(directory) && sha256sum -c SHA256SUMS")
            }
        }
        if !report.skipped.isEmpty {
            throw RecorderError(CLIFailure.leftOutOfExport(report.skipped))
        }
    }
}
