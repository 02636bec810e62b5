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

        // What the code needs beyond FoundationEssentials (threads, a lock, paths, printf, trimming),
        // so the binary does not link all of Foundation and its ICU data.
        .target(name: "SystemSupport", dependencies: ["CProcess"], swiftSettings: swiftSettings),
        .target(name: "VideoCapture", dependencies: ["CV4L2", "SystemSupport"], swiftSettings: swiftSettings),
        .target(name: "AudioCapture", dependencies: ["CAlsa", "SystemSupport"], swiftSettings: swiftSettings),
        .target(name: "TriggerInput", dependencies: ["CInput", "SystemSupport"], swiftSettings: swiftSettings),
        .target(name: "ShareCode", dependencies: ["CQRencode", "SystemSupport"], swiftSettings: swiftSettings),
        .target(name: "MediaEncoder", dependencies: ["CFFmpeg", "VideoCapture", "AudioCapture", "SystemSupport"], swiftSettings: swiftSettings),
        // MailValues: what a mail exchange is, as values with no transport (an address, the
        // server's reply and the step it answered, why a message was not sent, why mail settings
        // cannot work): the kiosk's words and pages use these without the storage module.
        .target(name: "MailValues", swiftSettings: swiftSettings),
        .target(name: "StorageUpload", dependencies: ["CCurl", "COpenSSL", "MailValues", "SystemSupport"],
                swiftSettings: swiftSettings),
        // The recorder's own modules, by subject, each depending only on those above it, so the
        // dependencies run the way a frame does: device, capture, encode, shot, post, upload, library.
        // Settings: what every part shares (RecorderError and its kinds, the configuration and its
        // catalogue, prompts, retention, durable files and locks).
        .target(
            name: "Settings",
            dependencies: ["VideoCapture", "AudioCapture", "MediaEncoder", "StorageUpload", "SystemSupport"],
            swiftSettings: swiftSettings),
        // Shooting: a shot from the camera to the workspace (the camera manager, the recording and
        // its job, the workspace and salvage, the preview, sound checks, consent).
        .target(
            name: "Shooting",
            dependencies: ["Settings", "VideoCapture", "AudioCapture", "MediaEncoder", "StorageUpload", "SystemSupport"],
            swiftSettings: swiftSettings),
        // Publishing: a shot made a post and sent to the store (the enqueuer, the outbox, the uploader
        // and its drain, metadata, share links) and the store's feed of posts.
        .target(
            name: "Publishing",
            dependencies: ["Shooting", "Settings", "MediaEncoder", "StorageUpload", "MailValues", "SystemSupport"],
            swiftSettings: swiftSettings),
        // Library: posts read back from the store for people (the video cache, the reel, the
        // export) and what expires (retention, of the store's posts and of this machine's copies).
        .target(
            name: "Library",
            dependencies: ["Publishing", "Shooting", "Settings", "MediaEncoder", "StorageUpload", "SystemSupport"],
            swiftSettings: swiftSettings),
        // Preflight: the checks before an event (`recorder doctor`, the operator page's list): each a
        // value with its finding's data; the camera, the microphone, the button, the disks, the
        // clock, the store's round trip, the outbox, the tokens, share links, TLS, the Wi-Fi, the unit.
        .target(
            name: "Preflight",
            dependencies: ["Publishing", "Shooting", "Settings", "TriggerInput", "StorageUpload", "VideoCapture", "SystemSupport"],
            swiftSettings: swiftSettings),
        // KioskWords: what the kiosk's edges say (the operator's words for every failure, the
        // guest's strings in each language, the mail's and the preflight's words) and the plain
        // values they word (KioskProblem, WifiNetwork): no service, no HTTP.
        .target(
            name: "KioskWords",
            dependencies: ["Settings", "Shooting", "Publishing", "Library", "Preflight", "MailValues", "SystemSupport"],
            swiftSettings: swiftSettings),
        // KioskHTTP: the kiosk's HTTP plumbing, with no kiosk service in it: the request's context
        // and roles, sessions and the login throttle, client slots and connection limits, API errors
        // and their statuses, JSON bodies and answers, files and videos served by ranges at the
        // socket's pace, the event hub, the proxy listener and the self-probe.
        .target(
            name: "KioskHTTP",
            dependencies: ["KioskWords", "Settings", "Shooting", "Publishing", "Library", "SystemSupport",
                           .product(name: "Hummingbird", package: "hummingbird"),
                           .product(name: "NIOCore", package: "swift-nio"),
                           .product(name: "HTTPTypes", package: "swift-http-types"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log")],
            swiftSettings: swiftSettings),
        // KioskState: the kiosk's settings and the state its services share and report: the settings
        // read from the configuration (and the kiosk's part of the catalogue), the status the pages
        // show, the guest's flow as a state machine, out of service, the prompt deck, the metrics
        // and limits, the problem log, share claims and tokens, the preflight's wiring, the one
        // judge of a configuration, and the operator page's Event section with its restart.
        .target(
            name: "KioskState",
            dependencies: ["KioskHTTP", "KioskWords", "Settings", "Shooting", "Publishing", "Library", "Preflight", "TriggerInput", "MailValues", "SystemSupport",
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "Prometheus", package: "swift-prometheus")],
            swiftSettings: swiftSettings),
        // The kiosk's pages as files (Sources/KioskService/Pages), put into the binary as Swift strings
        // at build time: no bundle and no Foundation to find them at run time.
        .executableTarget(name: "PageEmbedder"),
        .plugin(name: "EmbedPages", capability: .buildTool(), dependencies: ["PageEmbedder"]),
        // The kiosk daemon: services, the control API and the pages, over the same core modules the CLI uses.
        .target(
            name: "KioskService",
            dependencies: ["KioskState", "KioskHTTP", "KioskWords", "Settings", "Shooting", "Publishing", "Library", "Preflight", "TriggerInput", "ShareCode", "MailValues", "SystemSupport",
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
            dependencies: ["Settings", "Shooting", "Publishing", "Library", "Preflight", "KioskWords", "KioskHTTP", "KioskState", "KioskService", "MailValues", "SystemSupport",
                           .product(name: "UnixSignals", package: "swift-service-lifecycle"),
                           .product(name: "Logging", package: "swift-log"),
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            swiftSettings: swiftSettings),
        .executableTarget(name: "recorder", dependencies: ["RecorderCLI"], swiftSettings: swiftSettings),

        .testTarget(name: "SystemSupportTests", dependencies: ["SystemSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "VideoCaptureTests", dependencies: ["VideoCapture", "SystemSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "AudioCaptureTests", dependencies: ["AudioCapture", "SystemSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "MediaEncoderTests", dependencies: ["MediaEncoder", "VideoCapture"], swiftSettings: swiftSettings),
        .testTarget(name: "StorageUploadTests", dependencies: ["StorageUpload", "MailValues", "SystemSupport"], swiftSettings: swiftSettings),
        .testTarget(name: "RecorderCoreTests", dependencies: ["Settings", "Shooting", "Publishing", "Library", "VideoCapture", "AudioCapture", "MediaEncoder", "StorageUpload", "MailValues", "SystemSupport"],
                    swiftSettings: swiftSettings),
        .testTarget(name: "TriggerInputTests", dependencies: ["TriggerInput"], swiftSettings: swiftSettings),
        .testTarget(name: "ShareCodeTests", dependencies: ["ShareCode"], swiftSettings: swiftSettings),
        .testTarget(name: "KioskServiceTests",
                    dependencies: ["KioskService", "KioskState", "KioskHTTP", "KioskWords", "Preflight", "TriggerInput", "Settings", "Shooting", "Publishing", "Library", "VideoCapture", "AudioCapture", "MediaEncoder", "StorageUpload", "MailValues", "SystemSupport",
                                   .product(name: "Hummingbird", package: "hummingbird"),
                                   .product(name: "HTTPTypes", package: "swift-http-types"),
                                   .product(name: "NIOCore", package: "swift-nio"),
                                   .product(name: "NIOEmbedded", package: "swift-nio"),
                                   .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                   .product(name: "Logging", package: "swift-log")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "RecorderCLITests",
                    dependencies: ["RecorderCLI", "Settings", "Shooting", "Publishing", "Library", "KioskWords", "KioskHTTP", "KioskState", "KioskService", "VideoCapture", "MediaEncoder", "AudioCapture", "StorageUpload", "MailValues", "SystemSupport",
                                   .product(name: "ArgumentParser", package: "swift-argument-parser")],
                    swiftSettings: swiftSettings),
        .testTarget(name: "IntegrationTests", dependencies: ["Settings", "Shooting", "Publishing", "Library", "Preflight", "VideoCapture", "AudioCapture", "MediaEncoder", "StorageUpload", "MailValues", "SystemSupport"],
                    swiftSettings: swiftSettings),
    ]
)
