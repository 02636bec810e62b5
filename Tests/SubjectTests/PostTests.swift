import Foundation
@testable import Settings
@testable import Shooting
@testable import Publishing
import StorageUpload
import Testing
import StoreValues
import Failures
import SystemSupport
import Posting

@Suite struct CaptionTests {
    @Test func anyScriptAndEmojiPassAndLineBreaksAreNormalised() throws {
        #expect(try Caption.validate("مرحبا 👨‍👩‍👧 שלום\r\nnext\rlast\tend") == "مرحبا 👨‍👩‍👧 שלום\nnext\nlast\tend")
        #expect(try Caption.validate("") == "")
        #expect(try Caption.validate(String(repeating: "🇫🇷", count: Caption.maximumLength)).count == Caption.maximumLength)
    }

    @Test func controlCharactersAndOverlongCaptionsAreRefused() {
        for bad in ["a\u{0}b", "bell\u{7}", "\u{1b}[2J", "c1\u{85}", String(repeating: "x", count: Caption.maximumLength + 1), "bad \u{FFFD}"] {
            #expect(throws: RecorderError.self) { try Caption.validate(bad) }
        }
        let nul = #expect(throws: RecorderError.self) { try Caption.validate("a\u{0}b") }
        #expect(nul == TextProblem(.caption(source: nil), .controlCharacter(0, line: nil)) && nul?.kind == .badData)
    }
}

@Suite struct PostIDTests {
    @Test func idsAreTenAlphanumericsDrawnUniformly() {
        let ids = (0..<2000).map { _ in PostID.random() }
        #expect(ids.allSatisfy(PostID.isValid))
        #expect(Set(ids).count == ids.count)
        let used = Set(ids.joined())
        #expect(used.count == 62, "all of [A-Za-z0-9] should appear in 20,000 draws")
        #expect(!PostID.isValid("abc") && !PostID.isValid("abcdefghi!"))
    }
}

@Suite struct RecorderConfigurationTests {
    private func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "conf-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func flagsBeatTheEnvironmentWhichBeatsTheFile() throws {
        let path = try file("backend = local\nauthor_id = \"from file\"\nauthor_name = File\n# comment\n\nlocal.path = /f\n")
        defer { unlink(path) }
        let env = ["RECORDER_AUTHOR_NAME": "Env", "RECORDER_LOCAL_PATH": "/e", "HOME": "/home/x"]
        let config = try RecorderConfiguration(flags: ["local.path": "/flag"], configFile: path, environment: env)
        #expect(config.postAuthor == PostMetadata.Author(id: "from file", name: "Env"))
        #expect(config.localStoreDirectory == "/flag")
        #expect(config.outboxDirectory == "/home/x/.local/state/recorder/outbox")
        #expect(try RecorderConfiguration(flags: [:], configFile: path, environment: env).localStoreDirectory == "/e")
    }

    @Test func mistakesNameTheKeyAndTheLine() throws {
        let path = try file("backend = s3\ns3.bukket = x\n")
        defer { unlink(path) }
        let typo = #expect(throws: RecorderError.self) { try RecorderConfiguration(flags: [:], configFile: path, environment: [:]) }
        #expect(typo == ConfigurationProblem("\(path):2", .unknownKey(key: "s3.bukket", suggestion: "s3.bucket")) && typo?.kind == .misconfigured,
                "\(String(describing: typo))")
        let s3 = try RecorderConfiguration(flags: ["backend": "s3"], configFile: nil, environment: ["HOME": "/nonexistent"])
        let missing = #expect(throws: RecorderError.self) { try s3.makeBackend() }
        #expect(missing?.failure(as: ConfigurationProblem.self)?.issue == .s3Needs(key: "s3.endpoint"), "\(String(describing: missing))")
        // A bad value fails when the configuration is read, not when first used.
        let number = #expect(throws: RecorderError.self) {
            try RecorderConfiguration(flags: ["retry.max_seconds": "soon"], configFile: nil, environment: ["HOME": "/nonexistent"])
        }
        let bad = number?.failure(as: ConfigurationProblem.self)
        #expect(bad?.location == "the command line", "\(String(describing: number))")
        if case .badValue("retry.max_seconds", "soon", _)? = bad?.issue {} else { Issue.record("not the bad value: \(String(describing: number))") }
    }

    @Test func aCommentStartsAtTheLineStartOrAfterWhitespaceAndQuotesKeepIt() throws {
        let path = try file("""
            # a comment
              # an indented one
            local.path = /tmp/store # usb stick
            backend = local # x
            author_id = "a # b"   # quoted: kept
            author_name = a#b
            s3.prefix = "booth-1/"
            outbox =
            """)
        defer { unlink(path) }
        let config = try RecorderConfiguration(flags: [:], configFile: path, environment: ["HOME": "/nonexistent"])
        #expect(config.localStoreDirectory == "/tmp/store")
        #expect(config.values["backend"] == "local")
        #expect(config.values["author_id"] == "a # b" && config.values["author_name"] == "a#b")
        #expect(config.values["s3.prefix"] == "booth-1/" && config.values["outbox"] == "")
        #expect(config.origins["local.path"] == "\(path):3")
        let open = try file("author_id = \"no end\n")
        defer { unlink(open) }
        let unclosed = #expect(throws: RecorderError.self) { try RecorderConfiguration(flags: [:], configFile: open, environment: [:]) }
        #expect(unclosed == ConfigurationProblem("\(open):1", .unclosedQuote(key: "author_id")), "\(String(describing: unclosed))")
    }

    @Test func aKeySetTwiceNamesBothLines() throws {
        let path = try file("backend = local\n\ns3.bucket = a\nbackend = s3\n")
        defer { unlink(path) }
        let error = #expect(throws: RecorderError.self) { try RecorderConfiguration(flags: [:], configFile: path, environment: [:]) }
        #expect(error?.kind == .misconfigured)
        #expect(error == ConfigurationProblem("\(path):4", .setTwice(key: "backend", firstLine: 1)), "\(String(describing: error))")
    }

    @Test func invalidUTF8AndADirectorySaySo() throws {
        let path = NSTemporaryDirectory() + "conf-\(UUID().uuidString)"
        try Data([0x61, 0x75, 0x74, 0x68, 0x6f, 0x72, 0x5f, 0x69, 0x64, 0x3d, 0xff, 0xfe, 0x0a]).write(to: URL(fileURLWithPath: path), options: .atomic)
        defer { unlink(path) }
        let utf8 = #expect(throws: RecorderError.self) { try RecorderConfiguration(flags: [:], configFile: path, environment: [:]) }
        #expect(utf8 == ConfigurationProblem("\(path):1", .lineNotUTF8), "\(String(describing: utf8))")
        let directory = NSTemporaryDirectory() + "confdir-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { rmdir(directory) }
        let dir = #expect(throws: RecorderError.self) { try RecorderConfiguration(flags: [:], configFile: directory, environment: [:]) }
        #expect(dir?.failure(as: ConfigurationProblem.self)?.issue == .fileIsDirectory(path: directory), "\(String(describing: dir))")
        let missing = #expect(throws: RecorderError.self) { try RecorderConfiguration(flags: [:], configFile: directory + "/none", environment: [:]) }
        #expect(missing?.failure(as: ConfigurationProblem.self)?.issue == .fileMissing(path: directory + "/none"), "\(String(describing: missing))")
    }

    @Test func aKeyNoModuleDeclaredIsUnknown() throws {
        // The core alone does not know the kiosk's keys: a program that reads them joins the kiosk's settings.
        let path = try file("kiosk.listen = 127.0.0.1:8080\n")
        defer { unlink(path) }
        let error = #expect(throws: RecorderError.self) { try RecorderConfiguration(flags: [:], configFile: path, environment: [:]) }
        let unknown = error?.failure(as: ConfigurationProblem.self)
        #expect(unknown?.location == "\(path):1", "\(String(describing: error))")
        if case .unknownKey("kiosk.listen", _)? = unknown?.issue {} else { Issue.record("not an unknown key: \(String(describing: error))") }
        #expect(error?.kind == .misconfigured)
    }

    @Test func everyDefaultPassesItsOwnRuleAndEveryKeySaysWhatItDoes() throws {
        let configuration = try RecorderConfiguration(flags: [:], configFile: nil, environment: ["HOME": "/nonexistent"])
        for setting in SettingsCatalogue.core.settings {
            if let value = setting.defaultValue, !value.isEmpty {
                #expect(setting.rule.accepts(value), "\(setting.key)'s default '\(value)'")
            }
            if case .number = setting.rule, setting.defaultValue != nil { _ = try configuration.number(setting.key) }
            // Defaults live in the declaration, so the docs cannot say two things.
            #expect(!setting.summary.isEmpty && !setting.summary.hasSuffix(".") && !setting.summary.contains("(default"), "\(setting.key)")
            #expect(setting.defaultValue == nil || setting.defaultNote == nil, "\(setting.key) has a default and a note")
        }
    }
}

@Suite struct OutboxTests {
    private func metadata(_ id: String) -> PostMetadata {
        PostMetadata(id: id, video: "\(id).mp4", key: PostMetadata.videoKey(id: id), metadataKey: PostMetadata.metadataKey(id: id),
                     url: "", ext: "mp4", width: 2, height: 2, durationSeconds: 1, frameRate: 30, codec: "h264", byteSize: 5,
                     sha256: "", caption: id, author: .init(id: "a", name: "a"), createdAt: "2026-11-22T00:00:00Z", camera: "test",
                     likeCount: 0, shareCount: 0, commentCount: 0)
    }

    @Test func postsGoUpInTheOrderTheyWereQueuedAndLeaveOnlyOnceStored() throws {
        let root = NSTemporaryDirectory() + "outbox-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let outbox = Outbox(root: root + "/outbox")
        try outbox.prepare()
        var ids: [String] = []
        for n in 0..<3 {
            let video = "\(root)/v\(n)"
            try Data("video \(n)".utf8).write(to: URL(fileURLWithPath: video))
            var meta = metadata(PostID.random())
            let digest = try FileDigest.compute(path: video)
            meta.sha256 = digest.sha256
            meta.byteSize = digest.size
            ids.append(meta.id)
            _ = try outbox.enqueue(video: video, metadata: meta, shotID: "shot\(n)")
            #expect(FileManager.default.fileExists(atPath: video), "the source stays until the caller removes it")
        }
        #expect(outbox.items().map(\.metadata.id) == ids)
        let store = LocalDirectoryBackend(root: root + "/store")
        let report = try OutboxUploader(outbox: outbox, backend: store, policy: RetryPolicy(maximumAttempts: 1), poster: Posters.jpeg, log: { _ in }).flush()
        #expect(report.failure == nil)
        #expect(report.uploaded.map(\.id) == ids)
        #expect(outbox.items().isEmpty)
        for id in ids {
            #expect(outbox.receipt(id: id)?.videoURL.hasSuffix("/videos/\(id).mp4") == true)
            #expect(FileManager.default.fileExists(atPath: "\(root)/store/posts/\(id).json"))
        }
    }

    /// A damaged state.json (which says which store the post is for) keeps the post put and named:
    /// before, it read as "queued before posts kept their store" and went to whichever store flushed.
    @Test func aDamagedQueuedStateIsNeitherSentAnywhereNorLost() throws {
        let root = NSTemporaryDirectory() + "outbox-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let outbox = Outbox(root: root + "/outbox")
        try outbox.prepare()
        let video = "\(root)/v"
        try Data("video".utf8).write(to: URL(fileURLWithPath: video))
        var meta = metadata(PostID.random())
        let digest = try FileDigest.compute(path: video)
        meta.sha256 = digest.sha256
        meta.byteSize = digest.size
        let item = try outbox.enqueue(video: video, metadata: meta, shotID: "s")
        try Data("{\"shotID\": ".utf8).write(to: URL(fileURLWithPath: item.directory + "/state.json"))
        #expect(outbox.items().isEmpty)
        #expect(outbox.unreadableItems() == [item.directory])
        let report = try OutboxUploader(outbox: outbox, backend: LocalDirectoryBackend(root: root + "/store"),
                                        policy: RetryPolicy(maximumAttempts: 1), poster: Posters.jpeg, log: { _ in }).flush()
        #expect(report.uploaded.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "\(root)/store/videos"))
        #expect(FileManager.default.fileExists(atPath: item.directory + "/video.mp4"), "the queued video is kept")
    }

    @Test func aDamagedQueuedVideoIsNotUploadedAndStaysQueued() throws {
        let root = NSTemporaryDirectory() + "outbox-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let outbox = Outbox(root: root + "/outbox")
        let video = "\(root)-v"
        defer { unlink(video) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        try Data("video".utf8).write(to: URL(fileURLWithPath: video))
        var meta = metadata(PostID.random())
        meta.sha256 = String(repeating: "0", count: 64)
        let item = try outbox.enqueue(video: video, metadata: meta, shotID: "s")
        let report = try OutboxUploader(outbox: outbox, backend: LocalDirectoryBackend(root: root + "/store"),
                                        policy: RetryPolicy(maximumAttempts: 3), poster: Posters.jpeg, log: { _ in }).flush()
        // (the store's checksum mismatch is the cause)
        if case .storage(let error)? = report.failure?.cause { #expect(error.kind == .mismatch) } else {
            Issue.record("not a checksum mismatch: \(String(describing: report.failure))")
        }
        #expect(outbox.items().map(\.directory) == [item.directory])
        #expect(!FileManager.default.fileExists(atPath: "\(root)/store/videos"))
    }
}

@Suite struct RFC3339Tests {
    @Test func formatsUTCWholeSecondsAndReadsItBack() throws {
        let date = Date(timeIntervalSince1970: 1_795_344_157.9)
        #expect(RFC3339.string(date) == "2026-11-22T10:42:37Z")
        #expect(RFC3339.date("2026-11-22T10:42:37Z") == Date(timeIntervalSince1970: 1_795_344_157))
        #expect(RFC3339.string(Date(timeIntervalSince1970: 0)) == "1970-01-01T00:00:00Z")
        // Foundation's own ISO 8601 formatter, as an independent reader of what we write.
        #expect(ISO8601DateFormatter().date(from: RFC3339.string(date)) == Date(timeIntervalSince1970: 1_795_344_157))
    }

    @Test func refusesWhatItDoesNotWrite() {
        for bad in ["", "2026-11-22", "2026-11-22T10:42:37", "2026-11-22T10:42:37+01:00", "2026-13-22T10:42:37Z",
                    "2026-11-22T24:00:00Z", "2026-11-22T10:42:37.5Z", "abcd-11-22T10:42:37Z"] {
            #expect(RFC3339.date(bad) == nil, "\(bad)")
        }
    }

    @Test func shotJSONRoundTripsItsCreationTime() throws {
        let shot = Shot(id: "x", videoPath: "/v.mp4", createdAt: Date(timeIntervalSince1970: 1_700_000_000), source: "s",
                        inputFormat: "yu12", width: 16, height: 16, frameRate: 30, frames: 1, framesDropped: 0,
                        durationSeconds: 0.033, byteSize: 1, codec: "h264", encoder: "libx264", endedEarly: nil, notes: [])
        let data = try shot.jsonData()
        #expect((try JSONSerialization.jsonObject(with: data) as? [String: Any])?["createdAt"] as? String == "2023-11-14T22:13:20Z")
        #expect(try Shot.decoder.decode(Shot.self, from: data).createdAt == shot.createdAt)
    }
}
