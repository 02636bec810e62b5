import Foundation
import Testing

/// What the S3 suites share: a post sandbox on a test's own server, and the checks of what a post
/// left in the store (read back with curl, not with recorder's own client).
///
/// Four serialized suites (S3UploadTests, S3FeedTests, S3StreamingTests, S3ParallelTests), not one:
/// each test starts its own SeaweedFS on ports the kernel picks, so the suites can run side by side,
/// while a suite's own tests, each with a server and a recorder process, still run one at a time.
protocol S3Suite {}

extension S3Suite {
    func sandbox(_ s3: S3Fixture, _ extra: [String: String] = [:]) throws -> PostSandbox {
        var box = try PostSandbox()
        box.extraEnvironment = s3.environment.merging(extra) { $1 }
        return box
    }

    /// The posted video and metadata, fetched with curl; checks the bytes against `shotSHA`.
    func fetch(_ s3: S3Fixture, id: String, shotSHA: String, in box: PostSandbox) throws -> [String: Any] {
        let video = "\(box.root)/fetched.mp4", meta = "\(box.root)/fetched.json"
        #expect(try s3.get("videos/\(id).mp4", to: video) == 200)
        #expect(try s3.get("posts/\(id).json", to: meta) == 200)
        #expect(try sha256(of: video) == shotSHA)
        #expect(try Probe.decodesCleanly(video))
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: meta))) as? [String: Any]
        let metadata = try #require(object)
        #expect(metadata["sha256"] as? String == shotSHA)
        #expect(metadata["id"] as? String == id)
        #expect(metadata["key"] as? String == "videos/\(id).mp4")
        return metadata
    }

    func postedID(_ result: Tools.Output) throws -> String {
        #expect(result.status == 0, "post failed: \(result.stderr)")
        let answer = try jsonObject(result.stdout)
        #expect(answer["status"] as? String == "uploaded", "\(answer)")
        return try #require(answer["id"] as? String)
    }
}
