import Foundation
import Hummingbird
import Logging
@testable import Settings
@testable import Publishing
@testable import Library
import StorageUpload
import SystemSupport
import Testing
@testable import ShareServer
@testable import KioskState

/// A share server (`recorder serve`) over a local store, built by its own composition root
/// (`ShareServices`), as `recorder serve` builds it, on a test clock that stands still until a
/// test moves it.
struct ServeFixture {
    let directory: String
    let services: ShareServices
    let clock: TestClock

    /// `store`: the local store's directory (another fixture's, to serve what a booth posted);
    /// `loopGIF`: the boomerangs' GIF maker handed in (`recorder serve` hands the encoder's), or none.
    init(store: String, more: [String: String] = [:], clock: TestClock = TestClock(), loopGIF: SharedPosts.LoopGIFMaker? = nil) throws {
        directory = NSTemporaryDirectory() + "recorder-serve-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let config = directory + "/recorder.conf"
        try Data().write(to: URL(fileURLWithPath: config))
        var flags = ["local.path": store, "cache.path": directory + "/cache", "share.base_url": "https://videos.example.test/s/{token}"]
        flags.merge(more) { $1 }
        let configuration = try RecorderConfiguration(flags: flags, configFile: config, environment: ["HOME": directory], settings: .withKiosk)
        self.clock = clock
        services = try ShareServices(settings: try ServeSettings(configuration), configuration: configuration, logger: Logger(label: "test-serve"),
                                     clock: clock, loopGIF: loopGIF)
    }

    func application() -> some ApplicationProtocol {
        ServeDaemon(server: services).application()
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// A post in `store` as a booth leaves it there: video (`bytes`), metadata, index and a poster;
    /// made at `created` by booth `kiosk`, with a share token and, when given, a delete claim's hash.
    @discardableResult
    static func post(in store: LocalDirectoryBackend, id: String = PostID.random(), bytes: [UInt8], caption: String = "", kiosk: String? = nil,
                     created: Date, crc: Bool = true, claim: String? = nil, prompt: String? = nil) throws -> PostMetadata {
        var metadata = try PostMetadata.decode(Data(#"{"id":"x","video":"x.mp4","key":"k","metadataKey":"m","url":"u","ext":"mp4","width":1280,"height":720,"durationSeconds":2,"frameRate":15,"codec":"h264","byteSize":10,"sha256":"0000000000000000000000000000000000000000000000000000000000000000","caption":"c","author":{"id":"a","name":"A"},"createdAt":"2026-01-01T00:00:00Z","camera":"c","likeCount":0,"shareCount":0,"commentCount":0}"#.utf8))
        metadata.rename(to: id, url: store.url(forKey: PostMetadata.videoKey(id: id)))
        metadata.caption = caption
        metadata.prompt = prompt
        metadata.kiosk = kiosk
        metadata.byteSize = Int64(bytes.count)
        metadata.sha256 = FileDigest.sha256(bytes)
        var sum = CRC32()
        sum.update(bytes)
        metadata.crc32 = crc ? CRC32.hex(sum.value) : nil
        metadata.createdAt = RFC3339.string(created)
        metadata.shareToken = ShareToken.random()
        metadata.deleteClaim = claim.map(ShareClaims.hash)
        metadata.thumbnailKey = PostMetadata.thumbnailKey(id: id)
        try store.write(bytes, key: metadata.key, contentType: "video/mp4")
        try store.write([0xFF, 0xD8, 0xFF, 0xE0] + Array("poster of \(id)".utf8), key: metadata.thumbnailKey!, contentType: "image/jpeg")
        try store.write(Array(try metadata.jsonData()), key: metadata.metadataKey, contentType: "application/json")
        try PostFeed(store: store).index(metadata)
        return metadata
    }

    /// `count` random bytes: a video's stand-in (nothing here decodes it; every reader compares bytes).
    static func bytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}

/// Runs a program to its end: its exit status, what it wrote on its output and on its error output
/// (the independent readers: unzip, python3, pdftotext, zbarimg; zbarimg says on stderr that it
/// found no D-Bus, which is no part of what it read).
func tool(_ program: String, _ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: String, errors: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: program)
    process.arguments = arguments
    let output = Pipe(), stdin = Pipe()
    // The error output to a file: two pipes read one after the other could each wait on the other.
    let errors = NSTemporaryDirectory() + "recorder-tool-\(UUID().uuidString)"
    FileManager.default.createFile(atPath: errors, contents: nil)
    defer { try? FileManager.default.removeItem(atPath: errors) }
    let errorFile = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
    process.standardOutput = output
    process.standardError = errorFile
    process.standardInput = stdin
    try process.run()
    try errorFile.close()
    if let input { stdin.fileHandleForWriting.write(input) }
    try stdin.fileHandleForWriting.close()
    let read = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let written = (try? Data(contentsOf: URL(fileURLWithPath: errors))) ?? Data()
    return (process.terminationStatus, String(decoding: read, as: UTF8.self), String(decoding: written, as: UTF8.self))
}
