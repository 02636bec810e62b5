// swift-tools-version: 6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("InternalImportsByDefault"),
]

let package = Package(
    name: "recorder",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "recorder", targets: ["recorder"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        // No traits: the default "FullFoundation" links all of Foundation (50 MB of ICU data) into the binary.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: []),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
    ],
    targets: [
        // One header-only system-library target per C library; each is imported by exactly one Swift module.
        .systemLibrary(
            name: "CV4L2", pkgConfig: "libv4l2",
            providers: [.apt(["libv4l-dev"])]),
        .systemLibrary(
            name: "CAlsa", pkgConfig: "alsa",
            providers: [.apt(["libasound2-dev"])]),
        // FFmpeg's headers only (on the default include path): the libraries are opened with dlopen
        // when a shot needs them, so no pkg-config link flags (see Sources/CFFmpeg/shim.h).
        .systemLibrary(
            name: "CFFmpeg",
            providers: [.apt(["libavformat-dev", "libavcodec-dev", "libswscale-dev", "libswresample-dev", "libavutil-dev"])]),
        .systemLibrary(
            name: "CCurl", pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]),
        // libcrypto's digests: the OpenSSL that libcurl loads anyway, instead of a second copy (BoringSSL) in the binary.
        // Kernel headers only (linux/input.h): the evdev ioctls for the booth's button.
        .systemLibrary(name: "CInput"),
        // Kernel headers only: pidfd_open, so a child's end is waited for in poll(2), not polled.
        .systemLibrary(name: "CProcess"),
        .systemLibrary(
            name: "CQRencode", pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"])]),
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "libcrypto",
            providers: [.apt(["libssl-dev"])]),
        // zlib's CRC-32, for the ZIP archives (libcurl loads zlib anyway).
        .systemLibrary(
            name: "CZlib", pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]),

        // The layers (CodeRulesTests.layers holds them, docs/architecture.md draws the graph): the
        // system; values; one module per C library; settings and files; the subject modules; the
        // edges. A module depends only on the layers below its own (or on one of its own layer
        // before it), and names only what no other dependency already brings (CodeRulesTests).

        // The system. What the code needs beyond FoundationEssentials (threads, a lock, paths,
        // printf, trimming, the file system's calls with errno), so the binary does not link all of
        // Foundation and its ICU data.
        .target(name: "SystemSupport", dependencies: ["CProcess"], swiftSettings: swiftSettings),

        // Values, with no C library, no transport and no words: what the edges word and the modules
        // above carry.
        // MailValues: what a mail exchange is (an address, the server's reply and the step it
        // answered, why a message was not sent, why mail settings cannot work).
        .target(name: "MailValues", dependencies: ["SystemSupport"], swiftSettings: swiftSettings),
        // MediaValues: pictures, sounds and their devices with no driver or codec: sizes, rates and
        // pixel formats, a camera's facts, and the devices' and the encoder's failures as data.
        .target(name: "MediaValues", dependencies: ["SystemSupport"], swiftSettings: swiftSettings),
        // StoreValues: a store with no transport: where a post goes, and why a store failed.
        .target(name: "StoreValues", dependencies: ["SystemSupport"], swiftSettings: swiftSettings),
        // ShotValues: what a shot records that its post carries too: its sound, its effect and the guest's yes.
        .target(name: "ShotValues", dependencies: ["MediaValues", "StoreValues"], swiftSettings: swiftSettings),
        // PreflightValues: what the preflight found (each check's finding and its data: the
        // store's fault, a token's state, a certificate's dates...).
        .target(name: "PreflightValues", dependencies: ["MediaValues", "StoreValues"], swiftSettings: swiftSettings),
        // Failures: every failure as a case with its data: RecorderError and its kinds, the failure
        // enums of every module (the settings', the shot's, the post's, the library's, the kiosk's,
        // the command line's; the devices', the encoder's and the store's from MediaValues and
        // StoreValues) and the data `--json` gives of them.
        .target(name: "Failures", dependencies: ["MailValues", "MediaValues", "StoreValues"], swiftSettings: swiftSettings),
        // FleetValues: a booth's heartbeat in the store (its state, camera, disk, outbox, mail,
        // clock, last preflight), and what a reader of the fleet finds wrong with it, as data.
        .target(name: "FleetValues", swiftSettings: swiftSettings),

        // One module per C library, each its only importer; no C type leaves it (`InternalImportsByDefault`).
        .target(name: "VideoCapture", dependencies: ["MediaValues", "CV4L2"], swiftSettings: swiftSettings),
        .target(name: "AudioCapture", dependencies: ["MediaValues", "CAlsa"], swiftSettings: swiftSettings),
        .target(name: "TriggerInput", dependencies: ["SystemSupport", "CInput"], swiftSettings: swiftSettings),
        .target(name: "ShareCode", dependencies: ["SystemSupport", "CQRencode"], swiftSettings: swiftSettings),
        .target(name: "MediaEncoder", dependencies: ["AudioCapture", "VideoCapture", "CFFmpeg"], swiftSettings: swiftSettings),
        .target(name: "StorageUpload", dependencies: ["MailValues", "StoreValues", "CCurl", "COpenSSL", "CZlib"], swiftSettings: swiftSettings),

        // Settings and files.
        // Settings: the configuration, its catalogue of keys and their validation; prompts, retention, tokens.
        .target(name: "Settings", dependencies: ["Failures", "ShotValues"], swiftSettings: swiftSettings),
        // DurableFiles: the recorder's own files made to survive a crash (the workspace's, the
        // outbox's, the kiosk's sessions): crash-safe writes and renames and their locks, a failure
        // told as the RecorderError that names the fix.
        .target(name: "DurableFiles", dependencies: ["Failures"], swiftSettings: swiftSettings),

        // The recorder's own modules, by subject.
        // Shooting: a shot from the camera to the workspace (the camera manager, the recording and
        // its job, the workspace and salvage, the preview, sound checks, consent).
        .target(
            name: "Shooting",
            dependencies: ["DurableFiles", "MediaEncoder", "Settings", "StorageUpload"],
            swiftSettings: swiftSettings),
        // Publishing: a post sent to the store (the outbox, the uploader and its drain, metadata,
        // share links, guests' mail), the store's feed of posts, and the store client the
        // configuration makes. No capture, no encoding: a share server is built on it.
        .target(
            name: "Publishing",
            dependencies: ["DurableFiles", "Settings", "StorageUpload"],
            swiftSettings: swiftSettings),
        // Library: posts read back from the store for people (the video cache, the export) and the
        // store's posts expired (retention, with the clock's doubts).
        .target(
            name: "Library",
            dependencies: ["Publishing"],
            swiftSettings: swiftSettings),
        // Posting: what needs the shot and the encoder beside the store: a shot made a post (the
        // enqueuer, with the intro and outro joined to it; the booth's posters), posts made into a
        // highlight reel, and this machine's copies expired (its shots, records, cached videos).
        .target(
            name: "Posting",
            dependencies: ["Library", "Shooting"],
            swiftSettings: swiftSettings),
        // Fleet: the booths' heartbeats in the store (written by each kiosk, read by `recorder
        // fleet`, the fleet page and the exporter), judged (offline, and each booth's problems) and
        // told as Prometheus metrics. No capture, no encoding: a share server shows the fleet too.
        .target(
            name: "Fleet",
            dependencies: ["FleetValues", "Publishing",
                           .product(name: "Prometheus", package: "swift-prometheus")],
            swiftSettings: swiftSettings),
        // Preflight: the checks before an event (`recorder doctor`, the operator page's list): the
        // camera, the microphone, the button, the disks, the clock, the store's round trip, the
        // outbox, the tokens, share links, TLS, the Wi-Fi, the unit; each finding a value.
        .target(
            name: "Preflight",
            dependencies: ["PreflightValues", "Publishing", "Shooting", "TriggerInput"],
            swiftSettings: swiftSettings),

        // The edges.
        // KioskWords: what the kiosk's edges say (the operator's words for every failure, the
        // guest's strings in each language, the mail's and the preflight's words): no service, no
        // HTTP, no C library.
        .target(
            name: "KioskWords",
            dependencies: ["FleetValues", "PreflightValues", "Settings"],
            swiftSettings: swiftSettings),
        // KioskHTTP: the kiosk's HTTP plumbing, with no kiosk service and no C library in it: the
        // request's context and roles, sessions and the login throttle, client slots and connection
        // limits, API errors and their statuses, JSON bodies and answers, files and videos served by
        // ranges at the socket's pace, the event hub, the proxy listener and the self-probe.
        // (HummingbirdCore and NIOHTTP1: each request is timed as it arrives, right after the
        // HTTP/1 decoder.)
        .target(
            name: "KioskHTTP",
            dependencies: ["DurableFiles", "KioskWords",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HummingbirdCore", package: "hummingbird"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOHTTP1", package: "swift-nio"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings),
        // FleetPage: the fleet's page and its data (`/fleet`, `GET /api/fleet`) as routes that the
        // kiosk and the share server mount, and the exporter of the booths' heartbeats as
        // Prometheus metrics (`recorder fleet --prometheus --listen`). No capture, no encoding.
        .target(
            name: "FleetPage",
            dependencies: ["Fleet", "KioskHTTP",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log")],
            exclude: ["Pages"],
            swiftSettings: swiftSettings,
            plugins: ["EmbedPages"]),
        // ShareServer: what a guest's phone and a host reach, from the store alone, and `recorder
        // serve` built of it: the share page, its video and poster, the guest's delete (the claim
        // checked against the hash in the post's metadata), the host's gallery with its archive
        // streamed from the store, its card; the routes the kiosk mounts too, and the share server's
        // settings, guard, operator login (the fleet page, with serve.token_file) and daemon. No
        // capture, no encoding.
        .target(
            name: "ShareServer",
            dependencies: ["FleetPage", "Library", "ShareCode",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log")],
            exclude: ["Pages"],
            swiftSettings: swiftSettings,
            plugins: ["EmbedPages"]),
        // KioskState: the kiosk's settings and the state its services share and report: the settings
        // read from the configuration (and the kiosk's part of the catalogue), the status the pages
        // show, the guest's flow as a state machine, out of service, the prompt deck, the metrics
        // and limits, the problem log, the preflight's wiring, the one
        // judge of a configuration, and the operator page's Event section with its restart.
        .target(
            name: "KioskState",
            dependencies: ["Posting", "Preflight", "ShareServer",
                           .product(name: "Logging", package: "swift-log"), .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Prometheus", package: "swift-prometheus")],
            swiftSettings: swiftSettings),
        // The pages as files (Sources/KioskService/Pages, Sources/ShareServer/Pages), put into the
        // binary as Swift strings at build time: no bundle and no Foundation to find them at run time.
        .executableTarget(name: "PageEmbedder"),
        .plugin(name: "EmbedPages", capability: .buildTool(), dependencies: ["PageEmbedder"]),
        // The kiosk daemon: services, the control API and the pages, over the same subject modules the CLI uses.
        .target(
            name: "KioskService",
            dependencies: ["KioskState",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "Prometheus", package: "swift-prometheus")],
            exclude: ["Pages"],
            swiftSettings: swiftSettings,
            plugins: ["EmbedPages"]),
        .target(
            name: "RecorderCLI",
            dependencies: ["KioskService",
                           .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings),
        .executableTarget(name: "recorder", dependencies: ["RecorderCLI"], swiftSettings: swiftSettings),

        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "VideoCaptureTests", dependencies: ["MediaValues", "SystemSupport", "VideoCapture"], swiftSettings: swiftSettings),
        .testTarget(name: "AudioCaptureTests", dependencies: ["AudioCapture", "MediaValues", "SystemSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MediaEncoderTests", dependencies: ["MediaEncoder", "MediaValues", "VideoCapture"], swiftSettings: swiftSettings),
        .testTarget(name: "StorageUploadTests", dependencies: ["MailValues", "StorageUpload", "StoreValues", "SystemSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "SubjectTests", dependencies: ["AudioCapture", "DurableFiles", "Failures", "Fleet", "FleetValues", "Library", "MailValues", "MediaEncoder", "MediaValues", "Posting", "Publishing", "Settings", "Shooting", "ShotValues", "StorageUpload", "StoreValues", "SystemSupport", "VideoCapture"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "TriggerInputTests", dependencies: ["TriggerInput"], swiftSettings: swiftSettings),
        .testTarget(name: "ShareCodeTests", dependencies: ["ShareCode"], swiftSettings: swiftSettings),
        .testTarget(name: "KioskServiceTests",
                    dependencies: ["AudioCapture", "Failures", "Fleet", "FleetPage", "FleetValues", "KioskHTTP", "KioskService", "KioskState", "KioskWords", "Library", "MailValues", "MediaEncoder", "MediaValues", "Posting", "Preflight", "PreflightValues", "Publishing", "Settings", "ShareCode", "ShareServer", "Shooting", "ShotValues", "StorageUpload", "StoreValues", "SystemSupport", "TriggerInput", "VideoCapture",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "NIOEmbedded", package: "swift-nio"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "RecorderCLITests",
                    dependencies: ["AudioCapture", "Failures", "KioskService", "KioskState", "KioskWords", "Library", "MailValues", "MediaEncoder", "MediaValues", "Publishing", "RecorderCLI", "Settings", "Shooting", "StorageUpload", "StoreValues", "SystemSupport", "VideoCapture",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "IntegrationTests", dependencies: ["AudioCapture", "Failures", "Library", "MailValues", "MediaEncoder", "MediaValues", "Posting", "Preflight", "PreflightValues", "Publishing", "Settings", "Shooting", "StorageUpload", "StoreValues", "SystemSupport", "VideoCapture"],
                    swiftSettings: swiftSettings),
    ]
)
