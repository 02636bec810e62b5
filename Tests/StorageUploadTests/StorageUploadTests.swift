import Foundation
@testable import StorageUpload
import SystemSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif
import StoreValues

@Suite struct S3ResponseTests {
    private func classify(_ status: Int, _ code: String?, operation: StorageError.Operation = .upload) -> StorageError {
        let body = code.map { "<?xml version=\"1.0\"?><Error><Code>\($0)</Code><Message>said &amp; done</Message></Error>" } ?? ""
        return S3Response.failure(status: status, body: body, operation: operation, target: "videos/x.mp4", credentials: "the environment")
    }

    @Test func throttlingTimeoutsAndServerErrorsAreRetryable() {
        #expect(classify(503, "SlowDown").isRetryable)
        #expect(classify(400, "RequestTimeout").isRetryable)
        #expect(classify(500, "InternalError").isRetryable)
        #expect(classify(502, nil).isRetryable)
        #expect(classify(429, nil).isRetryable)
        #expect(classify(200, "InternalError").isRetryable)
    }

    @Test func otherClientErrorsAreNotAndNameTheFix() {
        // (their words, the server's code and message and the fix, are the edges' snapshots:
        // FailureSamples.storeRefusals, worded by this classifier)
        let denied = classify(403, "SignatureDoesNotMatch")
        #expect(!denied.isRetryable && denied.kind == .accessDenied)
        #expect(classify(404, "NoSuchBucket").kind == .missingContainer)
        #expect(!classify(400, "InvalidArgument").isRetryable)
        #expect(!classify(400, "EntityTooSmall").isRetryable)
        let skew = classify(403, "RequestTimeTooSkewed")
        #expect(!skew.isRetryable && skew.kind == .http(status: 403, code: "RequestTimeTooSkewed"))
    }

    @Test func readsTagsAndErrorDocuments() {
        let xml = "<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><UploadId>a/b+c=&amp;</UploadId></InitiateMultipartUploadResult>"
        #expect(S3Response.value(of: "UploadId", in: xml) == "a/b+c=&")
        #expect(S3Response.value(of: "Missing", in: xml) == nil)
        #expect(S3Response.isError("<?xml version=\"1.0\"?>\n<Error><Code>x</Code></Error>"))
        #expect(!S3Response.isError(xml))
    }
}

@Suite struct S3RequestTests {
    private func backend(pathStyle: Bool = true, prefix: String = "") throws -> S3Backend {
        try S3Backend(S3Configuration(endpoint: "https://s3.example.com:9000/", region: "eu-west-1", bucket: "my.bucket", prefix: prefix,
                                      pathStyle: pathStyle, credentials: S3Credentials(accessKeyID: "AK", secretAccessKey: "SK", source: "test")))
    }

    @Test func keysArePercentEncodedAsSigV4SignsThem() throws {
        #expect(S3Backend.encode("a b(c)+d/é~_-.") == "a%20b%28c%29%2Bd/%C3%A9~_-.")
        #expect(S3Backend.encode("x/y=z", keepSlash: false) == "x%2Fy%3Dz")
        #expect(try backend(prefix: "booth 1/").url(forKey: "videos/A.mp4") == "https://s3.example.com:9000/my.bucket/booth%201/videos/A.mp4")
        #expect(try backend(pathStyle: false).url(forKey: "videos/A.mp4") == "https://my.bucket.s3.example.com:9000/videos/A.mp4")
    }

    @Test func badSettingsAreRefusedBeforeAnyRequest() {
        let credentials = S3Credentials(accessKeyID: "AK", secretAccessKey: "SK", source: "test")
        let bad: [S3Configuration] = [
            S3Configuration(endpoint: "ftp://host", region: "r", bucket: "bucket", credentials: credentials),
            S3Configuration(endpoint: "https://host/path", region: "r", bucket: "bucket", credentials: credentials),
            S3Configuration(endpoint: "https://host", region: "r", bucket: "Bad_Bucket", credentials: credentials),
            S3Configuration(endpoint: "https://host", region: "r", bucket: "bucket", credentials: credentials, partSize: 4 << 20),
            S3Configuration(endpoint: "https://host", region: "r", bucket: "bucket", credentials: credentials, parallelParts: 0),
            S3Configuration(endpoint: "https://host", region: "r\nx", bucket: "bucket", credentials: credentials),
        ]
        for configuration in bad {
            #expect { try configuration.validate() } throws: { ($0 as? StorageError)?.kind == .configuration }
        }
    }
}

@Suite struct DigestTests {
    /// Reference values from Python's hashlib over the same bytes (i * 7 mod 251, 12 MiB + 123).
    @Test func checksumsAndMultipartETagMatchAnIndependentImplementation() throws {
        let count: Int = 12 * 1024 * 1024 + 123
        var bytes = [UInt8](repeating: 0, count: count)
        for i in 0..<count { bytes[i] = UInt8((i * 7) % 251) }
        let path = NSTemporaryDirectory() + "digest-\(UUID().uuidString)"
        defer { unlink(path) }
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let digest = try FileDigest.compute(path: path)
        #expect(digest.sha256 == "a30345d864642c926b1f3514007d9e35dd83b97f246f39999a3364611e365f4e")
        #expect(digest.md5 == "9fd844c8a81f368f95a6ed29b05b63ca")
        #expect(try FileDigest.multipartETag(path: path, size: digest.size, partSize: 5 << 20) == "f4acaf2bb83cbf442c107e87ef65c14a-3")
        // Part checksums taken in the same pass give the same ETag, also for a part size that is not
        // a whole number of the reader's 1 MiB chunks.
        let withParts = try FileDigest.compute(path: path, partSize: 5 << 20)
        #expect(withParts.sha256 == digest.sha256 && withParts.parts?.md5.count == 3)
        #expect(FileDigest.multipartETag(partMD5s: withParts.parts!.md5.map(FileDigest.bytes(hex:))) == "f4acaf2bb83cbf442c107e87ef65c14a-3")
        let odd: Int64 = 5 * 1024 * 1024 + 12345
        let oddParts = try #require(try FileDigest.compute(path: path, partSize: odd).parts)
        #expect(FileDigest.multipartETag(partMD5s: oddParts.md5.map(FileDigest.bytes(hex:)))
                == (try FileDigest.multipartETag(path: path, size: digest.size, partSize: odd)))
        #expect(oddParts.sha256.count == 3)
        #expect(FileDigest.base64(hex: "9fd844c8a81f368f95a6ed29b05b63ca") == Data(FileDigest.bytes(hex: digest.md5)).base64EncodedString())
    }

    /// MD5 in Swift, used where libcrypto refuses MD5 (an OpenSSL FIPS provider; Debian ships
    /// none, so the refusal itself cannot be staged here): RFC 1321's test suite, then libcrypto's
    /// own MD5 on random bytes of every length around the block edges, fed in uneven pieces.
    @Test func md5InSwiftIsLibcryptosMD5() {
        let suite = ["": "d41d8cd98f00b204e9800998ecf8427e", "a": "0cc175b9c0f1b6a831c399e269772661",
                     "abc": "900150983cd24fb0d6963f7d28e17f72", "message digest": "f96b697d7cb7938d525a2f31aaf161d0",
                     "abcdefghijklmnopqrstuvwxyz": "c3fcd3d76192e4007dfb496cca67e13b",
                     "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789": "d174ab98d277d9f5a5611c2c9f419d9f",
                     String(repeating: "1234567890", count: 8): "57edf4a22be3c955ac49da2e2107b67a"]
        for (text, expected) in suite {
            var swift = MessageDigest(.md5, swiftMD5: true)
            Array(text.utf8).withUnsafeBytes { swift.update($0) }
            #expect(swift.finish().hex == expected, "\(text)")
        }
        var generator = SystemRandomNumberGenerator()
        for length in [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 127, 128, 129, 1000, 100_003] {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            var swift = MessageDigest(.md5, swiftMD5: true)
            var start = 0
            while start < bytes.count {
                let end = min(bytes.count, start + Int.random(in: 1...150, using: &generator))
                bytes[start..<end].withUnsafeBytes { swift.update($0) }
                start = end
            }
            #expect(swift.finish().hex == MessageDigest.hash(.md5, bytes).hex, "\(length) bytes")
        }
        #expect(MessageDigest.libcryptoDoesMD5, "this machine's libcrypto gives MD5: the comparison above used it")
    }

    @Test func journalKnowsWhatIsMissing() {
        var journal = MultipartJournal(key: "k", uploadID: "u", partSize: 5, fileSize: 12, sha256: "s")
        #expect(journal.partCount == 3 && journal.missingParts == [1, 2, 3])
        journal.record(.init(number: 2, etag: "e2", md5: "00"))
        journal.record(.init(number: 2, etag: "e2b", md5: "00"))
        #expect(journal.missingParts == [1, 3] && journal.parts.count == 1 && journal.part(2)?.etag == "e2b")
    }
}

@Suite struct RetryPolicyTests {
    @Test func backoffGrowsToTheCapWithFullJitter() {
        let policy = RetryPolicy(initialSeconds: 0.5, maximumSeconds: 8)
        #expect((1...7).map { policy.ceiling(afterFailures: $0) } == [0.5, 1, 2, 4, 8, 8, 8])
        let delays = (0..<200).map { _ in policy.delay(afterFailures: 10) }
        #expect(delays.allSatisfy { $0 >= 0 && $0 <= 8 })
        #expect(delays.min()! < 2 && delays.max()! > 6, "full jitter spreads the waits over [0, cap]")
        #expect(policy.allowsAnother(after: 1_000_000))
        #expect(!RetryPolicy(maximumAttempts: 3).allowsAnother(after: 3))
    }
}

@Suite struct CredentialsTests {
    private func file(_ text: String, mode: mode_t) throws -> String {
        let path = NSTemporaryDirectory() + "creds-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, mode)
        return path
    }

    @Test func theEnvironmentComesFirstThenAPrivateFile() throws {
        let path = try file("[default]\naws_access_key_id = FILEKEY\naws_secret_access_key = FILESECRET\n", mode: 0o600)
        defer { unlink(path) }
        let env = try S3Credentials.load(environment: ["AWS_ACCESS_KEY_ID": "ENVKEY", "AWS_SECRET_ACCESS_KEY": "ENVSECRET"], file: path)
        #expect(env.accessKeyID == "ENVKEY")
        let fromFile = try S3Credentials.load(environment: [:], file: path)
        #expect(fromFile.accessKeyID == "FILEKEY" && fromFile.secretAccessKey == "FILESECRET")
        #expect(!"\(fromFile)".contains("FILESECRET"))
    }

    @Test func aFileOthersCanReadIsRefused() throws {
        let path = try file("access_key_id = K\nsecret_access_key = S\n", mode: 0o644)
        defer { unlink(path) }
        let error = #expect(throws: StorageError.self) { try S3Credentials.read(file: path) }
        #expect(error?.kind == .configuration && error?.isRetryable == false, "\(String(describing: error))")
        #expect(error?.reason == .credentialsOpenToOthers(file: path, mode: 0o644), "\(String(describing: error))")
        let broken = try file("access_key_id = K\nsecret_access_key = S X\n", mode: 0o600)
        defer { unlink(broken) }
        #expect { try S3Credentials.read(file: broken) } throws: { ($0 as? StorageError)?.kind == .configuration }
    }
}

@Suite struct LocalDirectoryBackendTests {
    @Test func objectsAppearWholeAndAreNeverOverwritten() throws {
        let root = NSTemporaryDirectory() + "store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = LocalDirectoryBackend(root: root, prefix: "p/")
        try store.prepare()
        let a = root + "-a", b = root + "-b"
        defer { unlink(a); unlink(b) }
        try Data("first".utf8).write(to: URL(fileURLWithPath: a))
        try Data("second".utf8).write(to: URL(fileURLWithPath: b))
        #expect(try store.stat(key: "videos/x.mp4") == nil)
        try store.upload(path: a, key: "videos/x.mp4", contentType: "video/mp4", digest: try FileDigest.compute(path: a), journal: root + "/j")
        try store.upload(path: a, key: "videos/x.mp4", contentType: "video/mp4", digest: try FileDigest.compute(path: a), journal: root + "/j")
        #expect {
            try store.upload(path: b, key: "videos/x.mp4", contentType: "video/mp4", digest: try FileDigest.compute(path: b), journal: root + "/j")
        } throws: { error in
            (error as? StorageError).map { $0.kind == .mismatch && !$0.isRetryable } == true
        }
        #expect(try String(contentsOfFile: "\(root)/p/videos/x.mp4", encoding: .utf8) == "first")
        let stored = try #require(try store.stat(key: "videos/x.mp4"))
        #expect(try store.matches(stored, path: a, digest: try FileDigest.compute(path: a)))
        #expect(!(try store.matches(stored, path: b, digest: try FileDigest.compute(path: b))))
        #expect(try FileManager.default.contentsOfDirectory(atPath: "\(root)/p/videos") == ["x.mp4"])
    }

    /// A write cut off by kill -9 or a power cut leaves its hidden copy (even beside an object linked
    /// into place just before the cut); the next upload clears it when its writer is gone or it is
    /// older than this boot, and never a live writer's. (Tests/vm/power-cut.sh found
    /// `videos/.incoming-<id>.mp4-<pid>` left for good.)
    @Test func copiesLeftByAWriterThatIsGoneAreClearedBeforeTheNextUpload() throws {
        let root = NSTemporaryDirectory() + "store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = LocalDirectoryBackend(root: root)
        try store.prepare()
        try FileManager.default.createDirectory(atPath: "\(root)/videos", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: "\(root)/posts", withIntermediateDirectories: true)
        // A pid that surely ran and is gone: a child that has been waited for.
        let child = Process()
        child.executableURL = URL(fileURLWithPath: "/bin/true")
        try child.run()
        child.waitUntilExit()
        let gone = child.processIdentifier, live = getppid()
        let left = ["videos/.incoming-x.mp4-\(gone)", "posts/.tmp-x.json-\(gone)"]
        let beforeBoot = "videos/.incoming-x.mp4-1"  // pid 1 runs; the file predates this boot
        let current = ["videos/.incoming-x.mp4-\(live)", "posts/.tmp-x.json-\(live)", "videos/other-\(gone)"]
        for name in left + current + [beforeBoot] { FileManager.default.createFile(atPath: "\(root)/\(name)", contents: Data("partial".utf8)) }
        var old = [timeval(tv_sec: 1_000_000, tv_usec: 0), timeval(tv_sec: 1_000_000, tv_usec: 0)]
        #expect(utimes("\(root)/\(beforeBoot)", &old) == 0)
        let a = root + "-a"
        defer { unlink(a) }
        try Data("whole".utf8).write(to: URL(fileURLWithPath: a))
        // The uploader prepares the store before each post, whether the post's objects are there yet or not.
        try store.prepare()
        for name in left + [beforeBoot] { #expect(access("\(root)/\(name)", F_OK) != 0, "\(name) should be cleared") }
        try store.upload(path: a, key: "videos/x.mp4", contentType: "video/mp4", digest: try FileDigest.compute(path: a), journal: root + "/j")
        // A live writer's copy and an object that is not a copy are left alone.
        for name in current { #expect(access("\(root)/\(name)", F_OK) == 0, "\(name) should stay") }
        #expect(try store.list(prefix: "videos/", startAfter: nil, maxKeys: 10).entries.map(\.key) == ["videos/other-\(gone)", "videos/x.mp4"])
    }

    /// A key is a name inside the store, whatever it says: `..` never steps out of it (a store
    /// document could name any key).
    @Test func keysNeverLeaveTheStore() throws {
        let root = NSTemporaryDirectory() + "store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = LocalDirectoryBackend(root: root + "/store", prefix: "p/")
        try store.prepare()
        try Data("outside".utf8).write(to: URL(fileURLWithPath: root + "/secret"))
        for key in ["../../secret", "thumbs/../../../secret", "a/../../../secret"] {
            #expect(try store.read(key: key, limit: 100) == nil, "\(key)")
            #expect(try store.stat(key: key) == nil, "\(key)")
            #expect(store.path(forKey: key).hasPrefix(root + "/store/p/"), "\(store.path(forKey: key))")
        }
        #expect(store.path(forKey: "videos/x.mp4") == root + "/store/p/videos/x.mp4")
    }

    /// Listing: a folder nothing was stored in is an empty page; a folder that cannot be listed is
    /// an error with its own errno (here ENOTDIR: a file where the folder should be), never EIO or
    /// an empty page that would hide the posts.
    @Test func listingSaysWhyAFolderCannotBeListed() throws {
        let root = NSTemporaryDirectory() + "store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = LocalDirectoryBackend(root: root, prefix: "p/")
        try store.prepare()
        #expect(try store.list(prefix: "feed/", startAfter: nil, maxKeys: 10).entries.isEmpty)
        try FileManager.default.createDirectory(atPath: "\(root)/p", withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: "\(root)/p/feed"))
        let error = #expect(throws: StorageError.self) { try store.list(prefix: "feed/", startAfter: nil, maxKeys: 10) }
        #expect(error?.kind == .local(errno: ENOTDIR), "\(String(describing: error))")
        #expect(error?.reason == .file(operation: "list", path: "\(root)/p/feed", errno: ENOTDIR, elsewhere: .configuration), "\(String(describing: error))")
    }

    /// A download tells its watcher of every write as it lands (a video played while it arrives
    /// follows these): the counts grow to the whole object, and each one is in the file already.
    @Test func aDownloadReportsEachWriteOnceItIsInTheFile() throws {
        let root = NSTemporaryDirectory() + "store-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = LocalDirectoryBackend(root: root)
        // Two and a half of the store's 1 MiB reads.
        let bytes = (0..<(5 << 19)).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try store.write(bytes, key: "videos/x.mp4", contentType: "video/mp4")
        let target = root + "/downloaded"
        let fd = open(target, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        try #require(fd >= 0)
        defer { close(fd) }
        var reports: [(written: Int64, inFile: Int64)] = []
        let got = try store.download(key: "videos/x.mp4", into: fd) { written in
            var status = stat()
            _ = fstat(fd, &status)
            reports.append((written, Int64(status.st_size)))
        }
        #expect(got == DownloadedObject(size: Int64(bytes.count), sha256: FileDigest.sha256(bytes)))
        #expect(reports.map(\.written) == [1 << 20, 2 << 20, Int64(bytes.count)])
        #expect(reports.allSatisfy { $0.inFile == $0.written }, "\(reports)")
        #expect(try store.download(key: "videos/none.mp4", into: fd, progress: nil) == nil)
    }

    /// A queued post's store compares as the store, not as typed: a relative path is absolute, a
    /// missing directory's path is normalised lexically, an endpoint keeps no credentials and no
    /// default port.
    @Test func storeDestinationsCompareAsTheStore() {
        let cwd = FileManager.default.currentDirectoryPath
        #expect(StoreDestination.local(path: "no-such-store-dir").path == cwd + "/no-such-store-dir")
        #expect(StoreDestination.local(path: "/no/such//store/./x/../").path == "/no/such/store")
        #expect(StoreDestination.local(path: "/no/such/store").isSameStore(as: .local(path: "/no//such/store/")))
        #expect(!StoreDestination.local(path: "/no/such/store").isSameStore(as: .local(path: "/no/such/store2")))
        let secret = StoreDestination.s3(endpoint: "HTTPS://user:pw@S3.Example:443/", bucket: "b", prefix: "")
        #expect(secret.endpoint == "https://s3.example" && !secret.description.contains("pw"))
        #expect(StoreDestination.s3(endpoint: "http://h:80", bucket: "b", prefix: "").isSameStore(as: .s3(endpoint: "http://h", bucket: "b", prefix: "")))
        #expect(!StoreDestination.s3(endpoint: "http://h:9000", bucket: "b", prefix: "").isSameStore(as: .s3(endpoint: "http://h", bucket: "b", prefix: "")))
        #expect(!StoreDestination.s3(endpoint: "http://h", bucket: "b", prefix: "p/").isSameStore(as: .s3(endpoint: "http://h", bucket: "b", prefix: "")))
    }
}
