import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
@testable import Settings
@testable import Publishing
@testable import Library
import StorageUpload
import SystemSupport
import Failures
import Testing
@testable import ShareServer
@testable import KioskHTTP

/// The host's gallery on a share server: the posts of its window and booths, newest first, paged;
/// never a hidden, deleted or expired one; and Download all, a ZIP streamed from the store that
/// unzip and Python's zipfile read back byte for byte, resumed with a Range.
struct HostGalleryTests {
    /// A store with posts of two booths in the gallery's window and some that are not the gallery's.
    struct Event {
        let store: String
        let backend: LocalDirectoryBackend
        let now: Date
        /// The gallery's posts, newest first.
        var shown: [PostMetadata] = []
        var hidden: PostMetadata!
        var deleted: PostMetadata!

        init(posts: Int = 6, sizes: ClosedRange<Int> = 2_000...40_000) throws {
            store = NSTemporaryDirectory() + "recorder-gallery-\(UUID().uuidString)"
            backend = LocalDirectoryBackend(root: store)
            now = Date()
            var made: [PostMetadata] = []
            for i in 0..<posts {
                made.append(try ServeFixture.post(in: backend, bytes: ServeFixture.bytes(Int.random(in: sizes)), caption: "Gruß \(i) 💐",
                                                  kiosk: i % 2 == 0 ? "booth-1" : "booth-2", created: now.addingTimeInterval(-Double(60 * (i + 1))),
                                                  crc: i % 3 != 0, prompt: i == 1 ? "Was wünscht ihr dem Paar?" : nil))
            }
            // Not the gallery's: another booth's, a post from before the window, one after it.
            try ServeFixture.post(in: backend, bytes: ServeFixture.bytes(50), kiosk: "booth-9", created: now.addingTimeInterval(-300))
            try ServeFixture.post(in: backend, bytes: ServeFixture.bytes(50), kiosk: "booth-1", created: now.addingTimeInterval(-3 * 86_400))
            try ServeFixture.post(in: backend, bytes: ServeFixture.bytes(50), kiosk: "booth-2", created: now.addingTimeInterval(3600))
            let feed = PostFeed(store: backend)
            hidden = made[1]
            try feed.hide(id: hidden.id)
            deleted = made[2]
            try feed.delete(id: deleted.id)
            shown = made.filter { $0.id != hidden.id && $0.id != deleted.id }
        }

        func remove() { try? FileManager.default.removeItem(atPath: store) }

        func gallery(expiresDays: Int? = nil, retention: Retention? = nil) throws -> Gallery {
            try Galleries(feed: PostFeed(store: backend), retention: retention)
                .create(event: "Anna & Ben", since: now.addingTimeInterval(-86_400), until: now, kiosks: ["booth-1", "booth-2"],
                        expiresDays: expiresDays, reel: nil, now: now)
        }
    }

    @Test func theGalleryShowsItsWindowsPostsOfItsBoothsNewestFirstAndNothingElse() async throws {
        let event = try Event(posts: 30, sizes: 100...200)
        defer { event.remove() }
        let gallery = try event.gallery()
        let serve = try ServeFixture(store: event.store, clock: TestClock(at: event.now))
        defer { serve.remove() }
        try await serve.application().test(.router) { client in
            // The page carries the first page of posts; the rest come by the cursor.
            var ids: [String] = []
            var next: String?
            try await client.execute(uri: "/g/\(gallery.token)", method: .get) { response in
                #expect(response.status == .ok)
                let page = String(buffer: response.body)
                #expect(page.contains("Anna &amp; Ben") && page.contains(#"href="/g/\#(gallery.token)/archive.zip""#))
                let first = try #require(page.firstMatch(of: /data-first="([^"]*)"/)).1
                let json = String(first).replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&amp;", with: "&")
                let decoded = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
                ids += (decoded["posts"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                next = decoded["next"] as? String
                #expect(ids.count == HostGalleries.pageSize)
            }
            while let cursor = next {
                try await client.execute(uri: "/g/\(gallery.token)/posts?after=\(cursor)", method: .get) { response in
                    #expect(response.status == .ok)
                    ids += (object(response)["posts"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
                    next = object(response)["next"] as? String
                }
            }
            #expect(ids == event.shown.map(\.id), "the gallery's posts newest first, minus the hidden, the deleted and the others")
            // A post that is not the gallery's opens nothing under it, a hidden or deleted one neither.
            for id in [event.hidden.id, event.deleted.id, "Ab3dE5fG7h"] {
                try await client.execute(uri: "/g/\(gallery.token)/\(id)/video.mp4", method: .get) { #expect($0.status == .notFound) }
                try await client.execute(uri: "/g/\(gallery.token)/\(id)/poster.jpg", method: .get) { #expect($0.status == .notFound) }
            }
            let shown = event.shown[0]
            try await client.execute(uri: "/g/\(gallery.token)/\(shown.id)/video.mp4", method: .get) { response in
                #expect(response.status == .ok)
                let stored = try event.backend.read(key: shown.key, limit: 1 << 20)
                #expect(Array(response.body.readableBytesView) == stored)
            }
        }
    }

    /// A wrong token, a revoked gallery and an expired one get the same 404, as any link that opens nothing.
    @Test func aRevokedOrExpiredGalleryIsAnUnknownLink() async throws {
        let event = try Event(posts: 3)
        defer { event.remove() }
        let (kept, revoked, short) = (try event.gallery(), try event.gallery(), try event.gallery(expiresDays: 1))
        let galleries = Galleries(feed: PostFeed(store: event.backend), retention: nil)
        #expect(try galleries.revoke("https://videos.example.test/g/\(revoked.token)/") == revoked)
        #expect(Set(try galleries.list().map(\.token)) == [kept.token, short.token])
        let clock = TestClock(at: event.now.addingTimeInterval(2 * 86_400))
        let serve = try ServeFixture(store: event.store, clock: clock)
        defer { serve.remove() }
        try await serve.application().test(.router) { client in
            var bodies = Set<String>()
            for token in [ShareToken.random(), revoked.token, short.token] {
                for path in ["", "/posts", "/archive.zip"] {
                    try await client.execute(uri: "/g/\(token)\(path)", method: .get) { response in
                        #expect(response.status == .notFound, "\(path)")
                        bodies.insert(String(buffer: response.body))
                    }
                }
            }
            #expect(bodies.count == 1)
            try await client.execute(uri: "/g/\(kept.token)", method: .get) { #expect($0.status == .ok) }
            // A share link's token is no gallery's.
            try await client.execute(uri: "/g/\(event.shown[0].shareToken!)", method: .get) { #expect($0.status == .notFound) }
        }
        // Retention ends a gallery with its window's posts.
        #expect(Galleries(feed: PostFeed(store: event.backend), retention: Retention(days: 1)).expiry(of: kept)
                == RFC3339.date(kept.until)!.addingTimeInterval(86_400))
    }

    @Test func downloadAllIsOneZipOfTheStoresBytesThatResumesWithARange() async throws {
        let event = try Event(posts: 7)
        defer { event.remove() }
        let gallery = try event.gallery()
        let serve = try ServeFixture(store: event.store, clock: TestClock(at: event.now))
        defer { serve.remove() }
        let scratch = NSTemporaryDirectory() + "recorder-zip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try await serve.application().test(.router) { client in
            var whole = Data(), etag = ""
            try await client.execute(uri: "/g/\(gallery.token)/archive.zip", method: .get) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "application/zip")
                #expect(response.headers[.contentDisposition]?.hasPrefix(#"attachment; filename="Anna & Ben.zip""#) == true)
                whole = Data(response.body.readableBytesView)
                #expect(response.headers[.contentLength] == String(whole.count), "the length is known up front")
                etag = response.headers[.eTag] ?? ""
            }
            try whole.write(to: URL(fileURLWithPath: scratch + "/all.zip"))
            // unzip tests every entry's CRC; Python's zipfile gives each entry's bytes, which must be the store's.
            let tested = try tool("/usr/bin/unzip", ["-t", scratch + "/all.zip"])
            #expect(tested.status == 0, "\(tested.output)")
            let read = try tool("/usr/bin/python3", ["-c", "import zipfile, hashlib, json, sys\nz = zipfile.ZipFile(sys.argv[1])\nprint(json.dumps([[i.filename, hashlib.sha256(z.read(i)).hexdigest()] for i in z.infolist()]))", scratch + "/all.zip"])
            let entries = try #require(try JSONSerialization.jsonObject(with: Data(read.output.utf8)) as? [[String]], "\(read.output)")
            let oldestFirst = event.shown.reversed()
            #expect(entries.map { $0[1] } == oldestFirst.map(\.sha256), "each post once, oldest first, byte for byte")
            #expect(entries.map { $0[0] } == oldestFirst.enumerated().map { "Anna & Ben/\(String(format: "%03d", $0.offset + 1)) - \($0.element.caption).mp4" })
            // Cut at half way, resumed with a Range (and the ETag): the same bytes.
            let half = whole.count / 2
            try await client.execute(uri: "/g/\(gallery.token)/archive.zip", method: .get,
                                     headers: [.range: "bytes=\(half)-", .ifRange: etag]) { response in
                #expect(response.status == .partialContent)
                #expect(response.headers[.contentRange] == "bytes \(half)-\(whole.count - 1)/\(whole.count)")
                #expect(Data(response.body.readableBytesView) == whole[half...])
            }
            // Every range, however it falls across headers, data and the directory, is the same bytes.
            for start in stride(from: 0, to: whole.count, by: max(1, whole.count / 37)) {
                let end = min(whole.count - 1, start + 5_000)
                try await client.execute(uri: "/g/\(gallery.token)/archive.zip", method: .get, headers: [.range: "bytes=\(start)-\(end)"]) { response in
                    #expect(Data(response.body.readableBytesView) == whole[start...end], "\(start)-\(end)")
                }
            }
            // The posts computed a CRC for (none in their metadata) have it kept in the store now.
            for post in event.shown where post.crc32 == nil {
                #expect(FileManager.default.fileExists(atPath: event.store + "/" + PostMetadata.sumsKey(id: post.id)), "\(post.id)")
            }
            // A post deleted after the page was loaded is not in the next archive, whose tag differs:
            // a resume asked with the old tag gets the new archive whole.
            let gone = event.shown[0]
            try PostFeed(store: event.backend).delete(id: gone.id)
            try await client.execute(uri: "/g/\(gallery.token)/archive.zip", method: .get,
                                     headers: [.range: "bytes=\(half)-", .ifRange: etag]) { response in
                #expect(response.status == .ok)
                #expect(response.headers[.eTag] != etag)
                let again = Data(response.body.readableBytesView)
                try again.write(to: URL(fileURLWithPath: scratch + "/again.zip"))
            }
            let listed = try tool("/usr/bin/python3", ["-c", "import zipfile, sys\nprint('\\n'.join(i.filename for i in zipfile.ZipFile(sys.argv[1]).infolist()))", scratch + "/again.zip"])
            #expect(listed.output.split(separator: "\n").count == event.shown.count - 1 && !listed.output.contains(gone.caption), "\(listed.output)")
        }
    }

    /// The card: the event, the link in words (pdftotext), and a QR code of the link that zbar reads
    /// off the page as poppler draws it.
    @Test func theCardCarriesTheLinkInWordsAndInACodeAPhoneReads() throws {
        let link = "https://videos.example.test/g/" + ShareToken.random()
        let pdf = try GalleryCard.pdf(event: "Anna & Bens Hochzeit – Sommerfest", link: link, expires: Date(timeIntervalSince1970: 1_800_000_000), language: "de")
        let scratch = NSTemporaryDirectory() + "recorder-card-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try GalleryCard.write(pdf, to: scratch + "/card.pdf")
        #expect(throws: RecorderError.gallery(.cannotWriteCard(path: scratch + "/card.pdf", errno: EEXIST))) { try GalleryCard.write(pdf, to: scratch + "/card.pdf") }
        let text = try tool("/usr/bin/pdftotext", ["-layout", scratch + "/card.pdf", "-"])
        #expect(text.status == 0)
        let words = text.output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(words.contains("Anna & Bens Hochzeit – Sommerfest") && words.contains(link) && words.contains("2027-01-15"), "\(text.output)")
        #expect(try tool("/usr/bin/pdftoppm", ["-png", "-r", "110", "-singlefile", scratch + "/card.pdf", scratch + "/card"]).status == 0)
        let read = try tool("/usr/bin/zbarimg", ["--quiet", "--raw", scratch + "/card.png"])
        #expect(read.output.trimmingCharacters(in: .whitespacesAndNewlines) == link, "\(read.output) \(read.errors)")
    }
}
