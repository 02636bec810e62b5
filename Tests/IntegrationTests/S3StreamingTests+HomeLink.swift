import Foundation
import Testing

/// Links that still work at home (docs/venue.md): a guest's link under a public name
/// (`share.base_url = https://NAME/s/{token}`) is served by the booth from its own copy while the
/// store cannot be reached, and the same link, asked of a kiosk at home that reads the same store,
/// opens the post once the booth has uploaded it. Two `recorder kiosk` processes on one SeaweedFS:
/// the booth's through the fault proxy (answering 503 to everything until the "internet" comes
/// back), home's straight to the server.
extension S3StreamingTests {
    /// GET `url` with curl into `file`: the status (000 when nothing answered).
    private func get(_ url: String, to file: String) throws -> String {
        try Tools.run("curl", ["-s", "-o", file, "-w", "%{http_code}", "--max-time", "60", url]).stdout
    }

    /// `expression` (Python, over the status as `s`) of the kiosk at `base`, polled until true or `seconds` pass.
    private func waitFor(_ base: String, _ expression: String, seconds: Double = 60) throws -> Bool {
        let end = Date().addingTimeInterval(seconds)
        while Date() < end {
            let script = "import json,sys,urllib.request; s = json.load(urllib.request.urlopen(sys.argv[1] + '/api/status')); sys.exit(0 if (\(expression)) else 1)"
            if try Tools.run("python3", ["-c", script, base]).status == 0 { return true }
            Thread.sleep(forTimeInterval: 0.3)
        }
        return false
    }

    @Test func aLinkQueuedAtTheBoothOpensThereAtOnceAndAtHomeOnceUploaded() throws {
        let s3 = try S3Fixture()
        let name = "https://videos.example.test/s/{token}"
        let small = ["RECORDER_SHARE_BASE_URL": name, "RECORDER_SHOOT_SIZE": "320x240", "RECORDER_SHOOT_PRESET": "ultrafast",
                     "RECORDER_AUDIO_DEVICE": "none"]
        let booth = try sandbox(s3, small)
        defer { booth.remove() }
        // Home reads the same bucket, not through the proxy: only the booth is offline.
        let home = try sandbox(s3, small.merging(["RECORDER_S3_ENDPOINT": "http://127.0.0.1:\(s3.serverPort)"]) { $1 })
        defer { home.remove() }
        try s3.faults([["match": "", "action": "respond", "status": 503, "body": "", "count": 1_000_000]])
        let short = ["--seconds", "1", "--countdown", "0"]
        let (boothKiosk, boothBase) = try kiosk(booth, arguments: short)
        defer { boothKiosk.process.terminate(); boothKiosk.process.waitUntilExit() }
        let (homeKiosk, homeBase) = try kiosk(home, arguments: short)
        defer { homeKiosk.process.terminate(); homeKiosk.process.waitUntilExit() }

        // A guest's shot and post at the booth, as its page makes them.
        #expect(try Tools.run("curl", ["-sf", "-o", "/dev/null", "-H", "Content-Type: application/json", "-d", "{}", boothBase + "/api/shoot"]).status == 0)
        #expect(try waitFor(boothBase, "s['state'] == 'idle' and s['currentShot'] is not None"))
        let status = try jsonObject(try Tools.run("curl", ["-sf", boothBase + "/api/status"]).stdout)
        let shot = try #require((status["currentShot"] as? [String: Any])?["id"] as? String)
        let posted = try Tools.run("curl", ["-sf", "-H", "Content-Type: application/json", "-d", #"{"id": "\#(shot)", "caption": "bis später"}"#,
                                            boothBase + "/api/post"])
        let id = try #require(try jsonObject(posted.stdout)["id"] as? String, "\(posted.stderr)")
        let queued = try #require(try FileManager.default.contentsOfDirectory(atPath: "\(booth.outbox)/queue").first { $0.hasSuffix("-\(id)") },
                                  "the post waits in the booth's outbox")
        let copy = try Data(contentsOf: URL(fileURLWithPath: "\(booth.outbox)/queue/\(queued)/video.mp4"))
        let share = try jsonObject(try Tools.run("curl", ["-sf", "\(boothBase)/api/posts/\(id)/share"]).stdout)
        let link = try #require(share["shareURL"] as? String)
        let path = try #require(URLComponents(string: link)?.path)
        #expect(link.hasPrefix("https://videos.example.test/s/"), "\(link)")

        // At the venue, offline: the booth serves the link from its copy; home does not have it yet.
        let file = "\(booth.root)/phone.mp4"
        #expect(try get(boothBase + path, to: "\(booth.root)/page.html") == "200")
        #expect(try get(boothBase + path + "/video.mp4", to: file) == "200")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == copy)
        #expect(try get(homeBase + path, to: "\(home.root)/page.html") == "404")
        #expect(try s3.get("videos/\(id).mp4", to: "\(booth.root)/stored.mp4") == 404, "nothing reached the store")

        // The internet is back: the booth sends the post, and the same link opens at home.
        try s3.faults([])
        #expect(try waitFor(boothBase, "s['outbox']['lastUploaded'] == '\(id)'", seconds: 120), "the booth did not upload the post")
        var opened = "000"
        let end = Date().addingTimeInterval(90)  // (home looks for new posts' tokens at most every 30 s)
        while Date() < end {
            opened = try get(homeBase + path, to: "\(home.root)/page.html")
            if opened == "200" { break }
            Thread.sleep(forTimeInterval: 1)
        }
        #expect(opened == "200", "home never opened the link")
        #expect(try String(contentsOfFile: "\(home.root)/page.html", encoding: .utf8).contains("bis später"))
        #expect(try get(homeBase + path + "/video.mp4", to: "\(home.root)/home.mp4") == "200")
        #expect(try Data(contentsOf: URL(fileURLWithPath: "\(home.root)/home.mp4")) == copy, "home's video is the booth's, byte for byte")
        #expect(try get(boothBase + path + "/video.mp4", to: file) == "200")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == copy, "the booth still serves it, now from the store")
    }
}
