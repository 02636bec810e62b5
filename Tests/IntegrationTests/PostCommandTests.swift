import Foundation
import Testing
import Failures

/// `recorder post` and `recorder outbox` with the embedded default store (a local directory).
@Suite struct PostCommandTests {
    @Test func withoutFFmpegAShootFailsClearlyAndPostingStillWorks() throws {
        var box = try PostSandbox()
        defer { box.remove() }
        let shotSHA = try box.shoot(seconds: 1)
        // The real dynamic loader, handed a damaged libavcodec first: FFmpeg is opened only by a shot.
        let broken = "\(box.root)/broken-lib"
        try FileManager.default.createDirectory(atPath: broken, withIntermediateDirectories: true)
        try Data("not a library".utf8).write(to: URL(fileURLWithPath: "\(broken)/libavcodec.so.59"))
        box.extraEnvironment["LD_LIBRARY_PATH"] = broken
        let shoot = try box.recorder(["shoot", "--device", "testsrc", "--seconds", "1", "--size", "320x240", "--json"])
        #expect(failed(shoot) == Failed(69, "unavailable", "media"), "\(shoot.stderr)")
        // (the package to install is what a person needs to fix it)
        #expect(shoot.stderr.contains("apt-get install libavcodec59"), "\(shoot.stderr)")
        #expect(try sha256(of: box.currentVideo) == shotSHA)
        let post = try box.recorder(["post", "--caption", "no codecs needed", "--json"])
        #expect(post.status == 0, "\(post.stderr)")
        let id = try #require(try jsonObject(post.stdout)["id"] as? String)
        #expect(try sha256(of: "\(box.localStore)/videos/\(id).mp4") == shotSHA)
    }

    @Test func postPublishesVideoAndMetadataToTheDefaultStore() throws {
        var box = try PostSandbox()
        defer { box.remove() }
        box.extraEnvironment = ["RECORDER_AUTHOR_ID": "booth-7", "RECORDER_AUTHOR_NAME": "Lobby booth"]
        let shotSHA = try box.shoot(seconds: 1)
        let caption = "שלום עולם 👋🏽 مرحبا\r\nsecond line"
        let result = try box.recorder(["post", "--caption", caption, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let answer = try jsonObject(result.stdout)
        #expect(answer["status"] as? String == "uploaded")
        let id = try #require(answer["id"] as? String)
        #expect(id.range(of: "^[A-Za-z0-9]{10}$", options: .regularExpression) != nil)

        let video = "\(box.localStore)/videos/\(id).mp4"
        #expect(try sha256(of: video) == shotSHA)
        let metaData = try #require(FileManager.default.contents(atPath: "\(box.localStore)/posts/\(id).json"))
        let meta = try #require(try JSONSerialization.jsonObject(with: metaData) as? [String: Any])
        let probe = try Probe(video)
        #expect(meta["id"] as? String == id)
        #expect(meta["video"] as? String == "\(id).mp4")
        #expect(meta["key"] as? String == "videos/\(id).mp4")
        #expect(meta["ext"] as? String == "mp4")
        #expect(meta["width"] as? Int == probe.width && meta["height"] as? Int == probe.height)
        #expect(abs((meta["durationSeconds"] as? Double ?? 0) - probe.duration) < 0.05)
        #expect(meta["frameRate"] as? Double == 30)
        #expect(meta["codec"] as? String == probe.codec)
        let size = try FileManager.default.attributesOfItem(atPath: video)[.size] as? Int
        #expect(meta["byteSize"] as? Int == size)
        #expect(meta["sha256"] as? String == shotSHA)
        #expect(meta["caption"] as? String == "שלום עולם 👋🏽 مرحبا\nsecond line")
        #expect((meta["author"] as? [String: String]) == ["id": "booth-7", "name": "Lobby booth"])
        let created = try #require(meta["createdAt"] as? String)
        #expect(created.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$"#, options: .regularExpression) != nil)
        #expect(meta["camera"] as? String == "test pattern")
        #expect(meta["likeCount"] as? Int == 0 && meta["shareCount"] as? Int == 0 && meta["commentCount"] as? Int == 0)
        #expect((meta["url"] as? String)?.hasPrefix("file://") == true)
        #expect(box.queued().isEmpty)

        // Twice: refused, and told where the first one went.
        let again = try box.recorder(["post", "--caption", "again", "--json"])
        #expect(failed(again) == Failed(65, "badData", "PostFailure.alreadyPosted"), "\(again.stderr)")
        let whereItIs = failureData(again)["whereItIs"] as? [String: Any]
        #expect(whereItIs?["case"] as? String == "uploaded" && (whereItIs?["video"] as? String)?.hasSuffix("/videos/\(id).mp4") == true,
                "\(again.stdout)")
    }

    @Test func postWithoutAShotSaysToShootFirst() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let result = try box.recorder(["post", "--caption", "x", "--json"])
        #expect(failed(result) == Failed(66, "notFound", "PostFailure.noFinishedShot"), "\(result.stderr)")
    }

    /// A current shot whose shot.json is damaged is said to be damaged (65), never "no shot", and is
    /// left as it is.
    @Test func aDamagedShotIsSaidToBeDamagedAndKept() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let shotSHA = try box.shoot()
        let shotJSON = URL(fileURLWithPath: box.currentVideo).deletingLastPathComponent().appendingPathComponent("shot.json").path
        try Data("{\"id\": ".utf8).write(to: URL(fileURLWithPath: shotJSON))
        let result = try box.recorder(["post", "--caption", "x", "--json"])
        #expect(failed(result) == Failed(65, "badData", "PostFailure.currentShotUnreadable"), "\(result.stderr)")
        #expect(box.queued().isEmpty)
        #expect(try sha256(of: box.currentVideo) == shotSHA)
        #expect(try String(contentsOfFile: shotJSON, encoding: .utf8) == "{\"id\": ")
    }

    @Test func captionRulesAreEnforcedAndTheShotKept() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let shotSHA = try box.shoot()
        let missing = try box.recorder(["post"])
        #expect(missing.status == 64 && missing.stderr.contains("--caption"))
        let tooLong = try box.recorder(["post", "--caption", String(repeating: "é", count: 2201), "--json"])
        #expect(failed(tooLong) == Failed(65, "badData", "TextProblem.tooLong"), "\(tooLong.stderr)")
        let control = try box.recorder(["post", "--caption", "bell\u{7}", "--json"])
        #expect(failed(control) == Failed(65, "badData", "TextProblem.controlCharacter"), "\(control.stderr)")
        let escape = try box.recorder(["post", "--caption", "\u{1b}[31mred", "--json"])
        #expect(failed(escape) == Failed(65, "badData", "TextProblem.controlCharacter"), "\(escape.stderr)")
        #expect(box.queued().isEmpty)
        #expect(try sha256(of: box.currentVideo) == shotSHA)
        // At the limit (emoji count as one character each), and empty, are fine.
        let atLimit = try box.recorder(["post", "--dry-run", "--caption", String(repeating: "🎥", count: 2200)])
        #expect(atLimit.status == 0, "\(atLimit.stderr)")
        let empty = try box.recorder(["post", "--caption", ""])
        #expect(empty.status == 0, "\(empty.stderr)")
    }

    @Test func dryRunShowsWhereAndChangesNothing() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let shotSHA = try box.shoot()
        let result = try box.recorder(["post", "--caption", "hi", "--dry-run", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let plan = try jsonObject(result.stdout)
        let planned = try #require(plan["id"] as? String)
        #expect(plan["url"] as? String == "file://\(box.localStore)/videos/\(planned).mp4", "\(plan)")
        #expect(box.queued().isEmpty)
        #expect(!FileManager.default.fileExists(atPath: "\(box.localStore)/videos"))
        #expect(try sha256(of: box.currentVideo) == shotSHA)
    }

    @Test func configurationPrecedenceIsFlagsThenEnvironmentThenFile() throws {
        var box = try PostSandbox()
        defer { box.remove() }
        let file = "\(box.root)/recorder.conf"
        try "# test\nbackend = local\nlocal.path = \(box.root)/from-file\nauthor_id = file-author\n".write(toFile: file, atomically: true, encoding: .utf8)
        // A configured store directory must exist (only the default one is made).
        for name in ["from-file", "from-env", "from-flag"] {
            try FileManager.default.createDirectory(atPath: "\(box.root)/\(name)", withIntermediateDirectories: true)
        }
        func post(_ extra: [String]) throws -> String {
            try box.shoot()
            let result = try box.recorder(["post", "--caption", "p", "--json", "--config", file] + extra)
            try #require(result.status == 0, "\(result.stderr)")
            return try #require(try jsonObject(result.stdout)["id"] as? String)
        }
        let a = try post([])
        #expect(FileManager.default.fileExists(atPath: "\(box.root)/from-file/videos/\(a).mp4"))
        box.extraEnvironment["RECORDER_LOCAL_PATH"] = "\(box.root)/from-env"
        let b = try post([])
        #expect(FileManager.default.fileExists(atPath: "\(box.root)/from-env/videos/\(b).mp4"))
        let c = try post(["--store-dir", "\(box.root)/from-flag"])
        #expect(FileManager.default.fileExists(atPath: "\(box.root)/from-flag/videos/\(c).mp4"))
        let metaData = try Data(contentsOf: URL(fileURLWithPath: "\(box.root)/from-flag/posts/\(c).json"))
        let meta = try #require(try JSONSerialization.jsonObject(with: metaData) as? [String: Any])
        #expect((meta["author"] as? [String: String])?["id"] == "file-author", "\(meta)")

        try "bakend = s3\n".write(toFile: file, atomically: true, encoding: .utf8)
        let typo = try box.recorder(["post", "--caption", "p", "--config", file, "--json"])
        #expect(failed(typo) == Failed(78, "misconfigured", "ConfigurationProblem.unknownKey"), "\(typo.stderr)")
        #expect(try jsonObject(typo.stdout)["location"] as? String == "\(file):1", "\(typo.stdout)")
    }

    @Test func unknownBackendAndLooseCredentialsAreConfigurationErrors() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let shotSHA = try box.shoot()
        let unknown = try box.recorder(["post", "--caption", "x", "--backend", "ftp", "--json"])
        #expect(failed(unknown) == Failed(78, "misconfigured", "ConfigurationProblem.unknownBackend"), "\(unknown.stderr)")
        #expect(try jsonObject(unknown.stdout)["location"] as? String == "the command line", "\(unknown.stdout)")
        let credentials = "\(box.root)/creds"
        try "access_key_id = a\nsecret_access_key = b\n".write(toFile: credentials, atomically: true, encoding: .utf8)
        chmod(credentials, 0o644)
        let loose = try box.recorder(["post", "--caption", "x", "--backend", "s3", "--endpoint", "http://127.0.0.1:9", "--bucket", "abc",
                                      "--set", "s3.credentials_file=\(credentials)", "--json"])
        #expect(failed(loose) == Failed(78, "misconfigured", "ConfigurationProblem.store"), "\(loose.stderr)")
        #expect(!(loose.stderr + loose.stdout).contains("secret_access_key = b"))
        let none = try box.recorder(["post", "--caption", "x", "--backend", "s3", "--endpoint", "http://127.0.0.1:9", "--bucket", "abc", "--json"])
        #expect(failed(none) == Failed(78, "misconfigured", "ConfigurationProblem.store"), "\(none.stderr)")
        #expect(box.queued().isEmpty)
        #expect(try sha256(of: box.currentVideo) == shotSHA)
    }

    /// A full store disk says so (not "permission denied"), whether the video or a directory does
    /// not fit, and the post stays queued for when there is room.
    @Test(arguments: [("1m", "the video does not fit"), ("8m,nr_inodes=1", "no inode left for a directory")])
    func fullStoreDiskIsReportedAndThePostStaysQueued(_ options: String, _ what: String) throws {
        guard let small = try Tools.smallFileSystem(size: options) else { return }
        defer { Tools.removeSmallFileSystem(small) }
        let box = try PostSandbox()
        defer { box.remove() }
        let shotSHA = try box.shootLarge()
        let result = try box.recorder(["post", "--caption", "x", "--store-dir", "\(small)/store", "--create", "--json"])
        // 74 (ioFailure), not 73 (cannotWrite: permissions).
        #expect(queued(result) == Failed(74, "ioFailure", "PostFailure.notUploaded"), "\(what): \(result.stdout) \(result.stderr)")
        #expect(box.queued().count == 1)
        // Once there is room (another store, named for this post with retarget), it goes out whole.
        let id = try #require(box.queued().first?.split(separator: "-").last.map(String.init))
        let retarget = try box.recorder(["outbox", "retarget", id, "--store-dir", "\(box.root)/roomy", "--json"])
        #expect(retarget.status == 0, "\(retarget.stderr)")
        #expect((try jsonObject(retarget.stdout)["destination"] as? [String: Any])?["path"] as? String == "\(box.root)/roomy", "\(retarget.stdout)")
        let flush = try box.recorder(["outbox", "flush", "--store-dir", "\(box.root)/roomy", "--create"])
        #expect(flush.status == 0, "\(flush.stderr)")
        let videos = (try? FileManager.default.contentsOfDirectory(atPath: "\(box.root)/roomy/videos")) ?? []
        #expect(videos.count == 1 && (try? sha256(of: "\(box.root)/roomy/videos/\(videos.first ?? "")")) == shotSHA, "\(videos)")
    }

    /// A store disk gone read-only (ext4 remounts a failing disk so) is named as that, not as
    /// permissions (which root has anyway), and the post stays queued until it is writable again.
    @Test func readOnlyStoreDiskIsReportedAndThePostStaysQueued() throws {
        guard let small = try Tools.smallFileSystem(size: "8m") else { return }
        defer { Tools.removeSmallFileSystem(small) }
        let box = try PostSandbox()
        defer { box.remove() }
        let shotSHA = try box.shoot()
        try FileManager.default.createDirectory(atPath: "\(small)/store", withIntermediateDirectories: true)
        try #require(try Tools.run("mount", ["-o", "remount,ro", small]).status == 0)
        let result = try box.recorder(["post", "--caption", "x", "--store-dir", "\(small)/store", "--json"])
        #expect(queued(result) == Failed(73, "cannotWrite", "PostFailure.notUploaded"), "\(result.stdout) \(result.stderr)")
        #expect(box.queued().count == 1)
        try #require(try Tools.run("mount", ["-o", "remount,rw", small]).status == 0)
        let flush = try box.recorder(["outbox", "flush", "--store-dir", "\(small)/store"])
        #expect(flush.status == 0, "\(flush.stderr)")
        let videos = (try? FileManager.default.contentsOfDirectory(atPath: "\(small)/store/videos")) ?? []
        #expect(videos.count == 1 && (try? sha256(of: "\(small)/store/videos/\(videos.first ?? "")")) == shotSHA, "\(videos)")
        #expect(box.queued().isEmpty)
    }

    @Test func fullOutboxDiskIsReportedAndTheShotKept() throws {
        guard let small = try Tools.smallFileSystem(size: "1m") else { return }
        defer { Tools.removeSmallFileSystem(small) }
        let box = try PostSandbox()
        defer { box.remove() }
        let shotSHA = try box.shootLarge()
        let result = try box.recorder(["post", "--caption", "x", "--outbox", small, "--json"])
        #expect(failed(result) == Failed(74, "ioFailure", "PostFailure.cannotCopyVideo"), "\(result.stderr)")
        #expect(try sha256(of: box.currentVideo) == shotSHA)
        let leftovers = (try? FileManager.default.contentsOfDirectory(atPath: "\(small)/queue")) ?? []
        #expect(leftovers.isEmpty, "\(leftovers)")
        // Once there is room, the same shot posts.
        let retry = try box.recorder(["post", "--caption", "x"])
        #expect(retry.status == 0, "\(retry.stderr)")
    }

    /// A post queued for one store is never published to another: a flush under the default
    /// configuration leaves an S3 post queued and says where it is meant to go; only an explicit
    /// `outbox retarget` sends it elsewhere.
    @Test func aQueuedPostKeepsItsStoreAndIsNeverSentElsewhereSilently() throws {
        var box = try PostSandbox()
        defer { box.remove() }
        let shotSHA = try box.shoot()
        box.extraEnvironment["AWS_ACCESS_KEY_ID"] = "booth-key"
        box.extraEnvironment["AWS_SECRET_ACCESS_KEY"] = "booth-secret"
        box.extraEnvironment["RECORDER_RETRY_INITIAL_SECONDS"] = "0.05"
        // Port 9 (discard) on loopback refuses the connection: the store is down.
        let post = try box.recorder(["post", "--caption", "for the booth bucket", "--backend", "s3", "--endpoint", "http://127.0.0.1:9",
                                     "--bucket", "booth", "--prefix", "kiosk-1/", "--attempts", "1", "--json"])
        #expect(post.status == 75, "\(post.stderr)")
        let id = try #require(try jsonObject(post.stdout)["id"] as? String)
        let listed = try box.recorder(["outbox", "list", "--json"])
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stdout)")
        let destination = rows.first?["destination"] as? [String: Any]
        #expect(rows.count == 1 && destination?["bucket"] as? String == "booth" && destination?["endpoint"] as? String == "http://127.0.0.1:9"
                && destination?["prefix"] as? String == "kiosk-1/", "\(listed.stdout)")
        #expect(!listed.stdout.contains("booth-secret") && !listed.stdout.contains("booth-key"))
        let state = try String(contentsOfFile: "\(box.outbox)/queue/\(try #require(box.queued().first))/state.json", encoding: .utf8)
        #expect(state.contains("kiosk-1/") && !state.contains("booth-secret") && !state.contains("booth-key"), "\(state)")

        // The default configuration's flush (the local store) must not take it.
        box.extraEnvironment["AWS_ACCESS_KEY_ID"] = ""
        box.extraEnvironment["AWS_SECRET_ACCESS_KEY"] = ""
        let flush = try box.recorder(["outbox", "flush", "--json"])
        #expect(flush.status == 0, "\(flush.stderr)")
        let left = try flush.stdout.split(separator: "\n").map { try jsonObject(String($0)) }
        let leftFor = left.first?["destination"] as? [String: Any]
        #expect(left.count == 1 && left.first?["status"] as? String == "elsewhere" && left.first?["id"] as? String == id
                && leftFor?["bucket"] as? String == "booth" && leftFor?["prefix"] as? String == "kiosk-1/", "\(flush.stdout)")
        #expect(box.queued().count == 1)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: "\(box.localStore)/videos")) ?? []).isEmpty)

        // Retargeted on purpose, it goes to the local store, whole.
        let retarget = try box.recorder(["outbox", "retarget", id, "--json"])
        #expect(retarget.status == 0, "\(retarget.stdout) \(retarget.stderr)")
        let previous = try jsonObject(retarget.stdout)["previous"] as? [String: Any]
        #expect(previous?["bucket"] as? String == "booth" && previous?["prefix"] as? String == "kiosk-1/", "\(retarget.stdout)")
        let sent = try box.recorder(["outbox", "flush", "--json"])
        #expect(sent.status == 0, "\(sent.stderr)")
        #expect(try jsonObject(sent.stdout)["id"] as? String == id, "\(sent.stdout)")
        #expect(box.queued().isEmpty)
        #expect(try sha256(of: "\(box.localStore)/videos/\(id).mp4") == shotSHA)
        let unknown = try box.recorder(["outbox", "retarget", "nosuchpost", "--json"])
        #expect(failed(unknown) == Failed(66, "notFound", "PostFailure.notQueued"), "\(unknown.stderr)")
    }

    /// A configured store directory that is missing (an unmounted USB stick, a typo) is an error,
    /// not a directory tree made on the disk below, and nothing is queued for it (issue 42 part 6);
    /// --create makes it. A regular file is "not a directory".
    @Test func aMissingOrNonDirectoryStoreIsRefusedBeforeThePostIsQueued() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let shotSHA = try box.shoot()
        let missing = "\(box.root)/usb-stick/deep/store"
        let refused = try box.recorder(["post", "--caption", "x", "--store-dir", missing, "--json"])
        #expect(failed(refused) == Failed(73, "cannotWrite", "PostFailure.storeMissing"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "\(box.root)/usb-stick"))
        #expect(box.queued().isEmpty)

        let created = try box.recorder(["post", "--caption", "x", "--store-dir", missing, "--create"])
        #expect(created.status == 0, "\(created.stderr)")
        let videos = (try? FileManager.default.contentsOfDirectory(atPath: "\(missing)/videos")) ?? []
        #expect(videos.count == 1 && (try? sha256(of: "\(missing)/videos/\(videos.first ?? "")")) == shotSHA)

        try box.shoot()
        let file = "\(box.root)/a-file"
        try "not a directory".write(toFile: file, atomically: true, encoding: .utf8)
        let notDirectory = try box.recorder(["post", "--caption", "z", "--store-dir", file, "--json"])
        #expect(failed(notDirectory) == Failed(73, "cannotWrite", "PostFailure.storeNotReady"), "\(notDirectory.stderr)")
        // Not a directory (ENOTDIR), not permissions.
        let cause = failureData(notDirectory)["cause"] as? [String: Any]
        #expect(cause?["failure"] as? String == "storage" && (cause?["data"] as? [String: Any])?["errno"] as? Int == Int(ENOTDIR), "\(notDirectory.stdout)")
        #expect(box.queued().isEmpty)
        // The default location is still made when missing.
        try box.shoot()
        let byDefault = try box.recorder(["post", "--caption", "y"])
        #expect(byDefault.status == 0 && FileManager.default.fileExists(atPath: "\(box.localStore)/videos"), "\(byDefault.stderr)")
    }

    /// The attempt count a failed upload reports is the post's own, kept across flushes (the
    /// kiosk's drain flushes once per retry: its page said "after 1 attempt" forever).
    @Test func theAttemptCountRisesAcrossFlushes() throws {
        var box = try PostSandbox()
        defer { box.remove() }
        try box.shoot()
        box.extraEnvironment["AWS_ACCESS_KEY_ID"] = "k"
        box.extraEnvironment["AWS_SECRET_ACCESS_KEY"] = "s"
        let store = ["--backend", "s3", "--endpoint", "http://127.0.0.1:9", "--bucket", "booth"]
        func attempts() throws -> [Int] {
            let listed = try box.recorder(["outbox", "list", "--json"] + store)
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]], "\(listed.stdout)")
            return rows.map { $0["attempts"] as? Int ?? -1 }
        }
        let post = try box.recorder(["post", "--caption", "x", "--attempts", "1"] + store)
        #expect(post.status == 75, "\(post.stderr)")
        #expect(try attempts() == [1])
        for n in 2...3 {
            let flush = try box.recorder(["outbox", "flush", "--attempts", "1", "--json"] + store)
            #expect(failed(flush) == Failed(75, "busy", "CLIFailure.stillQueued"), "\(flush.stderr)")
            #expect(try attempts() == [n])
        }
    }

    /// `--caption -` reads standard input, `--caption-file` a file (trailing line breaks dropped),
    /// and `fetch ID -o -` writes the video to standard output, as curl does.
    @Test func captionsFromStandardInputOrAFileAndFetchToStandardOutput() throws {
        let box = try PostSandbox()
        defer { box.remove() }
        let recorder = try Tools.recorderBinary()
        func bash(_ script: String) throws -> Tools.Output { try Tools.run("bash", ["-c", script], environment: box.environment) }
        func caption(of id: String) throws -> String? {
            let data = try Data(contentsOf: URL(fileURLWithPath: "\(box.localStore)/posts/\(id).json"))
            return (try JSONSerialization.jsonObject(with: data) as? [String: Any])?["caption"] as? String
        }
        try box.shoot()
        let piped = try bash("printf 'Hallo \\360\\237\\221\\213\\n\\n' | '\(recorder)' post --caption - --json")
        #expect(piped.status == 0, "\(piped.stderr)")
        let first = try #require(try jsonObject(piped.stdout)["id"] as? String)
        #expect(try caption(of: first) == "Hallo 👋")

        try box.shoot()
        let file = "\(box.root)/caption.txt"
        try "Zeile 1\nZeile 2\n".write(toFile: file, atomically: true, encoding: .utf8)
        let fromFile = try box.recorder(["post", "--caption-file", file, "--json"])
        #expect(fromFile.status == 0, "\(fromFile.stderr)")
        #expect(try caption(of: try #require(try jsonObject(fromFile.stdout)["id"] as? String)) == "Zeile 1\nZeile 2")

        try box.shoot()
        try Data([0x61, 0xff, 0x62]).write(to: URL(fileURLWithPath: file))
        let invalid = try box.recorder(["post", "--caption-file", file, "--json"])
        #expect(failed(invalid) == Failed(65, "badData", "TextProblem.notUTF8"), "\(invalid.stderr)")
        let both = try box.recorder(["post", "--caption", "x", "--caption-file", file])
        #expect(both.status == 64 && both.stderr.contains("not both"), "\(both.stderr)")
        let neither = try box.recorder(["post"])
        #expect(neither.status == 64 && neither.stderr.contains("--caption-file"), "\(neither.stderr)")
        #expect(box.queued().isEmpty)

        let out = "\(box.root)/out.mp4"
        let fetched = try bash("'\(recorder)' fetch \(first) -o - > '\(out)'")
        #expect(fetched.status == 0 && fetched.stderr.contains("to standard output"), "\(fetched.stderr)")
        #expect(try sha256(of: out) == sha256(of: "\(box.localStore)/videos/\(first).mp4"))
        #expect(!FileManager.default.fileExists(atPath: "\(box.root)/-"))
        let clash = try box.recorder(["fetch", first, "-o", "-", "--json"])
        #expect(clash.status == 64, "\(clash.stderr)")
    }
}
