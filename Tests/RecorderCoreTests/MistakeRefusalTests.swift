import Foundation
import Testing
@testable import Settings
@testable import Shooting
@testable import Publishing
import StorageUpload
import VideoCapture

/// Issue 42 part 6's mistakes, judged by their failure's case and data (the words are the edges').
@Suite struct MistakeRefusalTests {
    /// `--overlay` at a directory is a directory, not an unreadable file.
    @Test func anOverlayThatIsADirectoryIsNamedSo() throws {
        let directory = ShotWorkspaceTests.tempRoot()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let error = #expect(throws: RecorderError.self) { try ShotRequest.overlay(directory, origin: "the command line") }
        #expect(error == ShotFailure.overlayIsDirectory(path: directory, origin: "the command line"), "\(String(describing: error))")
        #expect(error?.kind == .notFound)
    }

    /// A store directory that is not there (a typo) fails the plan, before anything is queued,
    /// and the shot stays unposted; a feed of it is an error, not an empty feed.
    @Test func aMissingStoreDirectoryIsRefusedBeforeAnythingIsQueued() async throws {
        let root = ShotWorkspaceTests.tempRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        let workspace = ShotWorkspace(root: root + "/workspace")
        let manager = CameraManager(workspace: workspace)
        _ = try await manager.shoot(ShotRequest(device: "testsrc", seconds: 0.2, capture: CaptureRequest(size: FrameSize(width: 64, height: 48))))
        let typo = root + "/stroe"
        let configuration = try RecorderConfiguration(flags: ["local.path": typo, "outbox": root + "/outbox"], configFile: nil,
                                                      environment: ["HOME": root])
        let outbox = Outbox(root: root + "/outbox")
        let enqueuer = PostEnqueuer(workspace: workspace, outbox: outbox, configuration: configuration)
        let error = #expect(throws: RecorderError.self) { try enqueuer.plan(caption: "x") }
        guard case .storeNotReady(let cause)? = error?.failure(as: PostFailure.self) else {
            Issue.record("not refused as a store that is not ready: \(String(describing: error))")
            return
        }
        #expect(cause.kind == .local(errno: ENOENT) && error?.kind == .cannotWrite, "\(cause)")
        #expect(outbox.items().isEmpty)
        #expect(enqueuer.postedID(try #require(workspace.currentShot())) == nil)
        #expect(!FileManager.default.fileExists(atPath: typo))

        let feed = PostFeed(store: LocalDirectoryBackend(root: typo, createsRoot: false))
        let listed = #expect(throws: RecorderError.self) { try feed.page(1, size: 10) }
        if case .cannotList(let listError)? = listed?.failure(as: FeedFailure.self) {
            #expect(listError.kind == .local(errno: ENOENT))
        } else {
            Issue.record("a missing store listed as: \(String(describing: listed))")
        }
        // A store that exists and holds no posts is an empty feed.
        try FileManager.default.createDirectory(atPath: typo, withIntermediateDirectories: true)
        #expect(try feed.page(1, size: 10).entries.isEmpty)
    }
}
