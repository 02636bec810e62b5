import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import Publishing
import StorageUpload
import Testing
@testable import KioskService
@testable import Settings
@testable import KioskWords

/// What a guest's phone gets beyond the share page itself: no code for a link it cannot open (this
/// machine's loopback), the player's poster, and a download named after the caption or the event.
struct SharePageTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func aLinkToThisMachinesOwnLoopbackIsNoLinkForAPhone() {
        let loopback = ["http://127.0.0.1:8080/s/x", "http://127.0.0.1/s/x", "https://127.8.9.10/s/x", "http://localhost:8080/s/x",
                        "http://LOCALHOST./s/x", "http://booth.localhost/s/x", "http://[::1]:8080/s/x", "http://[0:0:0:0:0:0:0:1]/s/x",
                        "http://[::ffff:127.0.0.1]/s/x", "http://[::ffff:7f00:1]/s/x", "http://0.0.0.0:8080/s/x", "http://[::]/s/x",
                        // As a phone's browser reads them (the WHATWG URL standard): still this machine.
                        "http://127.1/s/x", "http://0x7f.1/s/x", "http://2130706433/s/x", "http://0177.0.0.1/s/x", "http://127.0.0.1./s/x",
                        "http://user:pw@127.0.0.1/s/x", "http://evil.example@localhost/s/x",
                        // Not an address a phone opens at all.
                        "ftp://booth.example/x", "/s/x", "", "http:///s/x"]
        for url in loopback { #expect(!ShareLinks.opensOnPhones(url), "\(url) counted as a link a phone opens") }
        let phones = ["http://10.42.0.1/s/x", "http://192.168.1.20:8080/s/x", "https://videos.example.com/s/x", "https://127.0.0.1.example.com/s/x",
                      "http://localhost.example/s/x", "http://[2001:db8::1]/s/x", "http://[::ffff:10.0.0.1]/s/x", "https://s3.example.com/b/k?X-Amz-Signature=1",
                      "http://128.0.0.1/s/x", "http://127.0.0.1@booth.example/s/x"]
        for url in phones { #expect(ShareLinks.opensOnPhones(url), "\(url) counted as this machine") }
    }

    @Test func theShareAnswerAndTheOverviewSayWhetherAPhoneCanOpenTheLinks() async throws {
        for (more, opens) in [([String: String](), false), (["share.base_url": "http://10.42.0.1/s/{token}"], true),
                              (["share.base_url": "http://127.0.0.1/s/{token}"], false)] {
            let fixture = try KioskFixture(token: AdminAPITests.token, more: more)
            defer { fixture.remove() }
            await fixture.start()
            let (_, ids, _) = try ShareAPITests.posts(1, in: fixture)
            try await fixture.application().test(.router) { client in
                try await client.execute(uri: "/api/posts/\(ids[0])/share", method: .get, headers: ShareAPITests.authorized) { response in
                    #expect(response.status == .ok)
                    #expect(object(response)["opensOnPhones"] as? Bool == opens, "\(more): \(object(response))")
                }
                try await client.execute(uri: "/api/admin/overview", method: .get, headers: ShareAPITests.authorized) { response in
                    let links = object(response)["shareLinks"] as? [String: Any]
                    #expect(links?["opensOnPhones"] as? Bool == opens, "\(more): \(String(describing: links))")
                    #expect((links?["example"] as? String)?.contains("/s/") == true)
                }
            }
        }
    }

    @Test func theSharePageShowsThePostersAndNamesTheDownloadAfterTheCaption() async throws {
        let fixture = try KioskFixture(token: AdminAPITests.token)
        defer { fixture.remove() }
        await fixture.start()
        let (store, ids, tokens) = try ShareAPITests.posts(2, captions: ["Für Anna & Ben 💐\r\n\"alles Gute\"", ""], in: fixture)
        // The first post has a poster in the store, the second none.
        let poster: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0] + Array("a poster".utf8)
        var metadata = try PostFeed(store: store).metadata(id: ids[0])
        metadata.thumbnailKey = PostMetadata.thumbnailKey(id: ids[0])
        try store.write(poster, key: metadata.thumbnailKey!, contentType: "image/jpeg")
        try store.write(Array(try metadata.jsonData()), key: metadata.metadataKey, contentType: "application/json")
        try await fixture.application().test(.router) { client in
            try await client.execute(uri: "/s/\(tokens[0])", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(page.contains(#"poster="/s/\#(tokens[0])/poster.jpg""#), "\(page)")
                #expect(page.contains(#"download="Für Anna &amp; Ben 💐 alles Gute.mp4""#), "\(page)")
                #expect(!page.contains(#"download="\#(ids[0])"#))
            }
            try await client.execute(uri: "/s/\(tokens[0])/poster.jpg", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(Array(response.body.readableBytesView) == poster)
                #expect(response.headers[.cacheControl] == "private, no-store")
            }
            try await client.execute(uri: "/s/\(tokens[0])/video.mp4", method: .get) { response in
                // (the ASCII stand-in for old browsers keeps the ASCII; filename* carries the name itself)
                #expect(response.headers[.contentDisposition]
                        == #"inline; filename="Fr Anna & Ben alles Gute.mp4"; filename*=UTF-8''F%C3%BCr%20Anna%20&%20Ben%20%F0%9F%92%90%20alles%20Gute.mp4"#,
                        "\(response.headers[.contentDisposition] ?? "none")")
            }
            // No poster: none named, and its route is the 404 of a link that opens nothing; the
            // download is named after who posted it and the day (no caption).
            try await client.execute(uri: "/s/\(tokens[1])", method: .get) { response in
                let page = String(buffer: response.body)
                #expect(!page.contains("poster="))
                #expect(page.contains(#"download="A 20"#), "\(page)")
            }
            try await client.execute(uri: "/s/\(tokens[1])/poster.jpg", method: .get) { #expect($0.status == .notFound) }
            try await client.execute(uri: "/s/\(ShareToken.random())/poster.jpg", method: .get) { #expect($0.status == .notFound) }
            // The booth hides the first post: its poster goes with it.
            try await client.execute(uri: "/api/admin/posts/\(ids[0])/hide", method: .post, headers: ShareAPITests.authorized) { #expect($0.status == .ok) }
            try await client.execute(uri: "/s/\(tokens[0])/poster.jpg", method: .get) { #expect($0.status == .notFound) }
        }
    }

    /// The share page names the event (issue 49: it did not): its title and heading, with the
    /// event's name (`mail.event` today) in the page's words; with none, the booth's.
    @Test func theSharePageNamesTheEvent() async throws {
        for (language, event) in [("en", "Anna & Ben's wedding"), ("de", "Annas & Bens Hochzeit"), ("en", "")] {
            let fixture = try KioskFixture(token: AdminAPITests.token, more: ["mail.event": event, "kiosk.language": language])
            defer { fixture.remove() }
            await fixture.start()
            let (_, _, tokens) = try ShareAPITests.posts(1, in: fixture)
            try await fixture.application().test(.router) { client in
                try await client.execute(uri: "/s/\(tokens[0])", method: .get) { response in
                    let page = String(buffer: response.body)
                    let heading = page.firstMatch(of: #/<h1>([^<]*)</h1>/#).map { String($0.output.1) }
                    let title = page.firstMatch(of: #/<title>([^<]*)</title>/#).map { String($0.output.1) }
                    let expected = HTMLText.escaped(event.isEmpty ? GuestStrings.text(.shareTitle, language)
                                                                  : GuestStrings.text(.shareTitleAtEvent, language).replacing("{n}", with: event))
                    #expect(heading == expected && title == expected, "\(language) \(event): \(heading ?? "no h1") / \(title ?? "no title")")
                }
            }
        }
    }

    @Test func aFileNameKeepsTheWordsAndLeavesOutWhatAFileSystemOrAHeaderTakesAnotherWay() throws {
        func named(_ caption: String, author: String = "Anna & Ben's wedding", createdAt: String = "2026-11-24T18:30:12Z") throws -> String {
            var metadata = try PostMetadata.decode(Data(#"{"id":"ABCDEFGHIJ","video":"x.mp4","key":"k","metadataKey":"m","url":"u","ext":"mp4","width":1,"height":1,"durationSeconds":2,"frameRate":15,"codec":"h264","byteSize":10,"sha256":"0000000000000000000000000000000000000000000000000000000000000000","caption":"c","author":{"id":"a","name":"A"},"createdAt":"2026-01-01T00:00:00Z","camera":"c","likeCount":0,"shareCount":0,"commentCount":0}"#.utf8))
            metadata.caption = caption
            metadata.author.name = author
            metadata.createdAt = createdAt
            return ShareFileName.name(for: metadata)
        }
        #expect(try named("Happy birthday 🎂 Anna & Ben") == "Happy birthday 🎂 Anna & Ben.mp4")
        #expect(try named("first line\r\nsecond\tline\u{2028}third") == "first line second line third.mp4")
        #expect(try named("../../etc/passwd") == "etcpasswd.mp4")
        #expect(try named("C:\\boot.ini") == "Cboot.ini.mp4")
        #expect(try named("\"quoted\" <b>name</b>?*|") == "quoted bnameb.mp4")
        // A right-to-left override would show "evil4pm.exe" as "evilexe.mp4" turned around.
        #expect(try named("evil\u{202E}4pm.exe") == "evil4pm.exe.mp4")
        #expect(try named("ding\u{07}dong\u{0}") == "dingdong.mp4")
        #expect(try named("👩‍👩‍👧 family") == "👩‍👩‍👧 family.mp4")
        #expect(try named("  ... ") == "Anna & Ben's wedding 2026-11-24.mp4")
        #expect(try named("", author: "", createdAt: "not a date") == "video.mp4")
        #expect(try named("", author: "booth-1", createdAt: "bad") == "booth-1.mp4")
        // Long: whole characters, at most 80 bytes before the extension.
        let long = try named(String(repeating: "👩‍👩‍👧", count: 40))
        #expect(long.utf8.count <= ShareFileName.maximumBytes + 4 && long.hasSuffix("👩‍👩‍👧.mp4"))

        // Every caption of the corpus: a name with none of what is left out, and a header that is
        // ASCII alone, whose filename* Python's email parser (an independent reader of RFC 2231) reads
        // back as that very name.
        let corpus = try FileManager.default.contentsOfDirectory(atPath: Self.repository + "/Fixtures/captions").sorted()
        #expect(corpus.count >= 8)
        var names: [String] = [], headers: [String] = []
        for file in corpus {
            let caption = try String(contentsOfFile: Self.repository + "/Fixtures/captions/" + file, encoding: .utf8)
            let name = try named(caption)
            #expect(name.hasSuffix(".mp4") && !name.hasPrefix(".") && name.utf8.count <= ShareFileName.maximumBytes + 4, "\(file): \(name)")
            #expect(!name.unicodeScalars.contains { $0.properties.generalCategory == .control || "/\\\"".unicodeScalars.contains($0) }, "\(file): \(name)")
            let header = ShareFileName.contentDisposition(name)
            #expect(header.utf8.allSatisfy { (0x20...0x7E).contains($0) }, "\(file): \(header)")
            names.append(name)
            headers.append(header)
        }
        let input = try JSONSerialization.data(withJSONObject: headers)
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        // (Python's get_filename takes the first filename parameter; RFC 6266 has filename* win, as
        // browsers do: the decoded filename* when there is one)
        python.arguments = ["-c", "import email.message, email.utils, json, sys\nout = []\nfor h in json.load(sys.stdin):\n    m = email.message.Message()\n    m['Content-Disposition'] = h\n    star = [v for k, v in m.get_params(header='content-disposition') if k == 'filename' and isinstance(v, tuple)]\n    out.append(email.utils.collapse_rfc2231_value(star[0]) if star else m.get_filename())\nprint(json.dumps(out))"]
        let stdin = Pipe(), stdout = Pipe()
        python.standardInput = stdin
        python.standardOutput = stdout
        try python.run()
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let read = stdout.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        let parsed = try JSONSerialization.jsonObject(with: read) as? [String]
        #expect(parsed == names, "\(String(decoding: read, as: UTF8.self))")
    }
}
