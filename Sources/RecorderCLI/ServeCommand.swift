import ArgumentParser
import KioskService
import KioskState
import Logging
import Settings
import ShareServer
import Failures

/// `recorder serve`: the share server, with no camera.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve guests' share links and hosts' galleries from the store, with no camera: links that still work after the event.",
        discussion: """
        The share pages (/s/TOKEN), their posters and videos (ranges), the guest's own delete, and the hosts' galleries \
        (/g/TOKEN, made with `recorder gallery create`), read from the store as every command reads it (--backend s3 for a \
        store the booths post into). No camera, microphone or outbox, and no token for anything a phone reaches; with the operator's token in \
        serve.token_file, the fleet page (/fleet, every booth's heartbeat in the store) for the operator. Nothing is kept \
        between requests that the store does not hold, so any number of these behind a load balancer answer alike, and one can \
        be stopped at any moment. Listen on loopback behind the reverse proxy that has the public name's certificate \
        (nginx-recorder-serve.conf, docs/venue.md); serve.proxies names the proxies whose X-Real-IP is believed. SIGTERM \
        stops it; exit 0.
        """)

    @Option(name: .long, help: ArgumentHelp("Address and port to listen on (serve.listen, default 127.0.0.1:8090).", valueName: "host:port"))
    var listen: String?

    @Flag(name: .shortAndLong, help: "Log debug messages too.")
    var verbose = false

    @OptionGroup var store: StoreOptions

    func run() async throws {
        var flags = try store.flags()
        if let listen { flags["serve.listen"] = listen }
        let configuration = try RecorderConfiguration(flags: flags, configFile: store.config, settings: .withKiosk)
        let settings = try ServeSettings(configuration)
        let level: Logger.Level = verbose ? .debug : .info
        LoggingSystem.bootstrap { label in
            var handler = JournalLogHandler(label: label)
            handler.logLevel = level
            return handler
        }
        // A boomerang's GIF is made here too (on request, once, kept in the cache): a link opened at
        // home offers what it offered at the venue.
        let server = try ShareServices(settings: settings, configuration: configuration, logger: Logger(label: "recorder-serve"),
                                       loopGIF: SharedPosts.encodedGIF)
        try await ServeDaemon(server: server).run()
    }
}
