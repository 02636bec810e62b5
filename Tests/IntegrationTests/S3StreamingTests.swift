import Foundation
import Testing
import StorageUpload

/// The kiosk plays a video that is not in its cache yet as its bytes arrive from a slow store
/// (SeaweedFS behind the fault proxy's download throttle), fills the cache with the same bytes,
/// and never passes bad bytes off as a whole video.
@Suite(.serialized) struct S3StreamingTests: S3Suite {
    /// `recorder kiosk` on the sandbox's store, its cache in `cache` (else the sandbox's), with
    /// `arguments` more; returns its process and address.
    func kiosk(_ box: PostSandbox, cache: String? = nil, arguments: [String] = []) throws -> (RunningProcess, String) {
        let port = try S3Fixture.listenPort()
        var box = box
        if let cache { box.extraEnvironment["XDG_CACHE_HOME"] = cache }
        let process = try box.start(["kiosk", "--device", "testsrc", "--listen", "127.0.0.1:\(port)"] + arguments)
        let base = "http://127.0.0.1:\(port)"
        let end = Date().addingTimeInterval(60)
        while Date() < end && process.process.isRunning {
            if try Tools.run("curl", ["-s", "-o", "/dev/null", "-w", "%{http_code}", base + "/api/status"]).stdout == "200" { return (process, base) }
            Thread.sleep(forTimeInterval: 0.2)
        }
        if process.process.isRunning { process.process.terminate() }
        process.process.waitUntilExit()
        // Its own words: a port taken, a store refused.
        let said = String(decoding: process.err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        throw KioskDidNotStart(port: port, said: String(said.suffix(2000)))
    }

    private struct KioskDidNotStart: Error, CustomStringConvertible {
        var port: Int
        var said: String
        var description: String { "the kiosk did not answer on port \(port) within 60 s; it said: \(said)" }
    }

    /// The files in the cache's video folder: finished videos, and downloads under way (`.tmp-`).
    private func cacheFiles(_ cache: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: "\(cache)/recorder/videos")) ?? []).filter { !$0.hasPrefix(".locks") }
    }

    @Test func aVideoPlaysWhileItDownloadsAndIsCachedOnlyWhenWhole() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3)
        defer { box.remove() }
        let cache = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        // About 11 MB; through a 2 MB/s throttle its download takes several seconds.
        let shotSHA = try box.shootLarge()
        let video = "\(box.root)/posted.mp4"
        try FileManager.default.copyItem(atPath: box.currentVideo, toPath: video)
        let id = try postedID(try box.recorder(["post", "--caption", "slow store", "--json"]))
        let expected = try Data(contentsOf: URL(fileURLWithPath: video))
        try s3.faults([["match": "GET /\(S3Fixture.bucket)/videos/", "action": "throttle-download", "rate": 2_000_000, "count": 1000]])
        let (kiosk, base) = try kiosk(box, cache: cache)
        defer { kiosk.process.terminate(); kiosk.process.waitUntilExit() }

        // The first megabyte reaches the player while the cache holds only the download under way.
        let player = try Tools.start("curl", ["-sS", "-N", "-o", "-", "\(base)/api/videos/\(id).mp4"])
        var received = Data()
        while received.count < 1 << 20 {
            let more = player.out.fileHandleForReading.availableData
            if more.isEmpty { break }
            received += more
        }
        let during = cacheFiles(cache)
        #expect(received.count >= 1 << 20, "only \(received.count) bytes came")
        #expect(!during.isEmpty && during.allSatisfy { $0.hasPrefix(".tmp-") },
                "the first bytes came only after the download had finished: the cache held \(during)")
        // A range on the video still downloading is answered from what has arrived (or waits for it).
        let rangedBytes = try Tools.run("sh", ["-c", "curl -sS -r 1000-1999 '\(base)/api/videos/\(id).mp4' | sha256sum"])
        let expectedRange = try Tools.run("sh", ["-c", "tail -c +1001 '\(video)' | head -c 1000 | sha256sum"])
        #expect(rangedBytes.stdout == expectedRange.stdout, "the range is not the video's bytes 1000-1999")
        // The rest: byte for byte the posted video, and then the cache holds it (and no leftovers).
        received += player.out.fileHandleForReading.readDataToEndOfFile()
        player.process.waitUntilExit()
        #expect(player.process.terminationStatus == 0)
        #expect(received == expected, "streamed \(received.count) bytes, posted \(expected.count)")
        let after = cacheFiles(cache)
        #expect(after.count == 1 && !after[0].hasPrefix("."), "\(after)")
        #expect(try after.first.map { try sha256(of: "\(cache)/recorder/videos/\($0)") } == shotSHA)
    }

    @Test func aStoreCopyThatDoesNotMatchEndsTheResponseAndIsNotCached() throws {
        let s3 = try S3Fixture()
        let box = try sandbox(s3)
        defer { box.remove() }
        let cache = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        try box.shootLarge()
        let id = try postedID(try box.recorder(["post", "--caption", "damaged in the store", "--json"]))
        // The store's copy is damaged afterwards: same length, one byte changed near the end.
        let store = try S3Backend(S3Configuration(
            endpoint: "http://127.0.0.1:\(s3.serverPort)", region: "us-east-1", bucket: S3Fixture.bucket, prefix: "",
            credentials: S3Credentials(accessKeyID: S3Fixture.access, secretAccessKey: S3Fixture.secret, source: "the test")))
        let original = "\(box.root)/original.mp4"
        #expect(try s3.get("videos/\(id).mp4", to: original) == 200)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: original)))
        bytes[bytes.count - 100] ^= 0xFF
        try store.write(bytes, key: "videos/\(id).mp4", contentType: "video/mp4")
        try s3.faults([["match": "GET /\(S3Fixture.bucket)/videos/", "action": "throttle-download", "rate": 4_000_000, "count": 1000]])
        let (kiosk, base) = try kiosk(box, cache: cache)
        defer { kiosk.process.terminate(); kiosk.process.waitUntilExit() }

        let played = try Tools.run("curl", ["-sS", "-o", "\(box.root)/played.mp4", "-w", "%{http_code} %{size_download}", "\(base)/api/videos/\(id).mp4"])
        let fields = played.stdout.split(separator: " ")
        // Streamed while it came, then cut off short: curl says the transfer ended early (18).
        #expect(played.status == 18, "curl exit \(played.status): \(played.stdout) \(played.stderr)")
        #expect(fields.first == "200" && (Int(fields.last ?? "") ?? Int.max) < bytes.count, "\(played.stdout)")
        // Nothing cached, not even the download.
        Thread.sleep(forTimeInterval: 0.5)
        #expect(cacheFiles(cache).isEmpty, "\(cacheFiles(cache))")
        // Asked again, the same: still an error, never the bad copy whole.
        let again = try Tools.run("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code} %{size_download}", "\(base)/api/videos/\(id).mp4"])
        #expect(again.status != 0 || !again.stdout.hasPrefix("200 \(bytes.count)"), "\(again.stdout)")
    }

    /// The share token `recorder post` stored with post `id`, read from the store itself.
    private func shareToken(_ s3: S3Fixture, _ id: String, in box: PostSandbox) throws -> String {
        #expect(try s3.get("posts/\(id).json", to: "\(box.root)/\(id).json") == 200)
        let data = try Data(contentsOf: URL(fileURLWithPath: "\(box.root)/\(id).json"))
        let metadata = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(metadata["shareToken"] as? String)
    }

    @Test func aGuestDeletesTheirPostFromTheS3StoreWithItsShareLinkAndAFailedTryLosesNothing() throws {
        let s3 = try S3Fixture()
        var box = try sandbox(s3)
        defer { box.remove() }
        box.extraEnvironment["RECORDER_KIOSK_SECONDS"] = "1"
        box.extraEnvironment["RECORDER_KIOSK_COUNTDOWN_SECONDS"] = "0"
        let cache = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let (kiosk, base) = try kiosk(box, cache: cache)
        defer { kiosk.process.terminate(); kiosk.process.waitUntilExit() }
        func status() throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: Data(try Tools.run("curl", ["-sS", base + "/api/status"]).stdout.utf8)) as? [String: Any])
        }
        func delete(_ token: String, jar: String? = nil) throws -> String {
            try Tools.run("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}", "-d", "confirm=delete"] + (jar.map { ["-b", $0] } ?? []) + ["\(base)/s/\(token)/delete"]).stdout
        }
        func page(_ token: String, jar: String? = nil) throws -> String {
            try Tools.run("curl", ["-sS", "-o", "/dev/null", "-w", "%{http_code}"] + (jar.map { ["-c", $0] } ?? []) + ["\(base)/s/\(token)"]).stdout
        }
        // Two guests post at the booth; each one's phone opens its link from the thank-you's code
        // (keeping the kiosk's cookies in a jar of its own: the first phone holds the delete claim).
        var ids: [String] = [], tokens: [String] = [], jars: [String] = []
        for caption in ["mine", "someone else's"] {
            let before = (try status()["currentShot"] as? [String: Any])?["id"] as? String
            _ = try Tools.run("curl", ["-sS", "-H", "Content-Type: application/json", "-d", "{}", base + "/api/shoot"])
            var end = Date().addingTimeInterval(60)
            var shot: String?
            while Date() < end {
                let now = try status()
                if now["state"] as? String == "idle", let id = (now["currentShot"] as? [String: Any])?["id"] as? String, id != before { shot = id; break }
                Thread.sleep(forTimeInterval: 0.2)
            }
            let posted = try Tools.run("curl", ["-sS", "-H", "Content-Type: application/json", "-d", "{\"id\": \"\(try #require(shot))\", \"caption\": \"\(caption)\"}",
                                                 base + "/api/post"]).stdout
            let id = try #require((try JSONSerialization.jsonObject(with: Data(posted.utf8)) as? [String: Any])?["id"] as? String)
            end = Date().addingTimeInterval(60)
            while Date() < end, ((try status()["outbox"] as? [String: Any])?["lastUploaded"] as? String) != id { Thread.sleep(forTimeInterval: 0.2) }
            let token = try shareToken(s3, id, in: box)
            let jar = "\(box.root)/phone-\(ids.count).jar"
            #expect(try page(token, jar: jar) == "200")
            ids.append(id); tokens.append(token); jars.append(jar)
        }
        func keys(of id: String) throws -> [String] { try s3.keys(prefix: "").filter { $0.contains(id) }.sorted() }
        let before = try keys(of: ids[0])
        // Index object, metadata, poster, video.
        #expect(before.count == 4 && before.contains("posts/\(ids[0]).json") && before.contains("videos/\(ids[0]).mp4"), "\(before)")
        // The link alone (forwarded), or the other guest's phone, deletes nothing.
        #expect(try delete(tokens[0]) == "403")
        #expect(try delete(tokens[0], jar: jars[1]) == "403")
        #expect(try keys(of: ids[0]) == before)

        // The store refuses to delete the video: the guest is told to try again, and the metadata,
        // which names the rest, is still there (no video without metadata).
        try s3.faults([["match": "DELETE /\(S3Fixture.bucket)/videos/", "action": "respond", "status": 403,
                        "body": "<Error><Code>AccessDenied</Code><Message>injected</Message></Error>", "count": 100]])
        #expect(try delete(tokens[0], jar: jars[0]) == "503")
        let afterFailure = try keys(of: ids[0])
        #expect(afterFailure.contains("posts/\(ids[0]).json") && afterFailure.contains("videos/\(ids[0]).mp4"), "\(afterFailure)")
        try s3.faults([])
        // Once the store answers, a second try finishes.
        #expect(try page(tokens[0]) == "200", "the link no longer opens what is left to delete")
        #expect(try delete(tokens[0], jar: jars[0]) == "200")
        let left = try keys(of: ids[0])
        #expect(left.isEmpty, "left in the store: \(left)")
        #expect(try page(tokens[0]) == "404")
        #expect(try delete(tokens[0], jar: jars[0]) == "404")
        // The other guest's post is whole and still opens.
        #expect(try keys(of: ids[1]).count == before.count)
        #expect(try page(tokens[1]) == "200")
    }

    /// kiosk.consent on SeaweedFS: the kiosk records only after the yes, the post's metadata names
    /// the text and the text is stored once under its SHA-256 (read back by curl's S3 GET and
    /// sha256sum); `recorder export -o NAME.zip` from that store carries it.
    @Test func aConsentedPostCarriesItsTextIntoTheS3StoreAndTheExport() throws {
        let s3 = try S3Fixture()
        var box = try sandbox(s3)
        defer { box.remove() }
        let cache = try Tools.tempDirectory()
        defer { try? FileManager.default.removeItem(atPath: cache) }
        let text = "Wir nehmen euch mit Ton auf. Ihr könnt das Video später löschen."
        let file = "\(box.root)/consent.txt"
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        let sha = String(try Tools.run("sha256sum", [file]).stdout.prefix(64))
        box.extraEnvironment["RECORDER_KIOSK_CONSENT"] = file
        box.extraEnvironment["RECORDER_KIOSK_SECONDS"] = "1"
        box.extraEnvironment["RECORDER_KIOSK_COUNTDOWN_SECONDS"] = "0"
        let (kiosk, base) = try kiosk(box, cache: cache)
        defer { kiosk.process.terminate(); kiosk.process.waitUntilExit() }
        func call(_ path: String, _ body: String) throws -> (String, [String: Any]) {
            let out = try Tools.run("curl", ["-sS", "-w", "\n%{http_code}", "-H", "Content-Type: application/json", "-d", body, base + path]).stdout
            let lines = out.split(separator: "\n", omittingEmptySubsequences: false)
            let json = (try? JSONSerialization.jsonObject(with: Data(lines.dropLast().joined(separator: "\n").utf8))) as? [String: Any] ?? [:]
            return (String(lines.last ?? ""), json)
        }
        func status() throws -> [String: Any] {
            let out = try Tools.run("curl", ["-sS", base + "/api/status"]).stdout
            return try #require(try JSONSerialization.jsonObject(with: Data(out.utf8)) as? [String: Any])
        }
        #expect((try status()["consent"] as? [String: Any])?["textSha256"] as? String == sha)
        #expect(try call("/api/shoot", "{}").0 == "403")
        #expect(try call("/api/consent", "{\"answer\": \"yes\", \"textSha256\": \"\(sha)\"}").0 == "200")
        #expect(try call("/api/shoot", "{}").0 == "202")
        var end = Date().addingTimeInterval(60)
        while Date() < end {
            let now = try status()
            if now["currentShot"] as? [String: Any] != nil && now["state"] as? String == "idle" { break }
            Thread.sleep(forTimeInterval: 0.2)
        }
        let shot = try #require((try status()["currentShot"] as? [String: Any])?["id"] as? String)
        let (code, queued) = try call("/api/post", "{\"id\": \"\(shot)\", \"caption\": \"mit Zustimmung\"}")
        #expect(code == "202")
        let id = try #require(queued["id"] as? String)
        end = Date().addingTimeInterval(60)
        while Date() < end, ((try status()["outbox"] as? [String: Any])?["lastUploaded"] as? String) != id { Thread.sleep(forTimeInterval: 0.2) }

        #expect(try s3.get("posts/\(id).json", to: "\(box.root)/meta.json") == 200)
        let metadata = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(box.root)/meta.json"))) as? [String: Any])
        #expect((metadata["consent"] as? [String: Any])?["textSha256"] as? String == sha, "\(metadata)")
        #expect(try s3.keys(prefix: "consent/") == ["consent/\(sha).txt"])
        #expect(try s3.get("consent/\(sha).txt", to: "\(box.root)/stored.txt") == 200)
        #expect(String(try Tools.run("sha256sum", ["\(box.root)/stored.txt"]).stdout.prefix(64)) == sha)

        let today = String(ISO8601DateFormatter().string(from: Date()).prefix(10))
        let export = try box.recorder(["export", "--since", today, "-o", "\(box.root)/party.zip"])
        #expect(export.status == 0, "\(export.stderr)")
        let check = try Tools.run("sh", ["-c", "cd '\(box.root)' && unzip -q party.zip && cd party && sha256sum -c --strict SHA256SUMS && cat \(id)/consent.txt"])
        #expect(check.status == 0 && check.stdout.hasSuffix(text), "\(check.stdout)\(check.stderr)")
    }
}
