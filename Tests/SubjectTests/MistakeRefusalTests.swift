import Foundation
import Testing
@testable import Settings
@testable import Shooting
@testable import Publishing
import StorageUpload
import SystemSupport
import VideoCapture
import MediaValues
import StoreValues
import Failures
import Posting

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
        guard case .storeMissing(let path)? = error?.failure(as: PostFailure.self) else {
            Issue.record("not refused as a missing store: \(String(describing: error))")
            return
        }
        #expect(path == typo && error?.kind == .cannotWrite, "\(path)")
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

    /// A store that took a post and is missing now is a disk that is away, not a typo: the next
    /// post is queued for it and waits (the next shot would replace the unposted one), and the
    /// same directory under another spelling that never took a post is still refused.
    @Test func aStoreThatTookPostsAndIsMissingNowQueuesTheNextPost() async throws {
        let root = ShotWorkspaceTests.tempRoot()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = root + "/disk/store"
        try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
        let workspace = ShotWorkspace(root: root + "/workspace")
        let manager = CameraManager(workspace: workspace)
        let outbox = Outbox(root: root + "/outbox")
        func configured(_ path: String) throws -> PostEnqueuer {
            PostEnqueuer(workspace: workspace, outbox: outbox, configuration: try RecorderConfiguration(
                flags: ["local.path": path, "outbox": root + "/outbox"], configFile: nil, environment: ["HOME": root]))
        }
        let request = ShotRequest(device: "testsrc", seconds: 0.2, capture: CaptureRequest(size: FrameSize(width: 64, height: 48)))
        _ = try await manager.shoot(request)
        let enqueuer = try configured(store)
        let first = try enqueuer.enqueue(try enqueuer.plan(caption: "first"))
        let backend = LocalDirectoryBackend(root: store, createsRoot: false)
        let sent = try OutboxUploader(outbox: outbox, backend: backend, policy: RetryPolicy(maximumAttempts: 1), poster: Posters.jpeg, log: { _ in }).flush()
        #expect(sent.uploaded.map(\.id) == [first.metadata.id])

        // The disk goes away.
        try FileManager.default.moveItem(atPath: root + "/disk", toPath: root + "/unplugged")
        _ = try await manager.shoot(request)
        let second = try enqueuer.enqueue(try enqueuer.plan(caption: "second"))
        #expect(outbox.items().map(\.metadata.id) == [second.metadata.id])
        let waiting = try OutboxUploader(outbox: outbox, backend: backend, policy: RetryPolicy(maximumAttempts: 1), poster: Posters.jpeg, log: { _ in }).flush()
        if case .storage(let error)? = waiting.failure?.cause { #expect(error.kind == .local(errno: ENOENT)) } else {
            Issue.record("the missing disk failed the upload as: \(String(describing: waiting.failure))")
        }
        #expect(waiting.remaining.map(\.metadata.id) == [second.metadata.id])
        // Nothing offers to make the directory: on a disk away it would fill the disk below.
        #expect(waiting.failure?.advice.contains { $0.setting == .createStoreDirectory } == false, "\(String(describing: waiting.failure?.advice))")
        #expect(!FileManager.default.fileExists(atPath: store), "a missing disk's directory is not made in its place")

        // A directory that never took a post is still a typo.
        _ = try await manager.shoot(request)
        let error = #expect(throws: RecorderError.self) { try configured(root + "/disk/stroe").plan(caption: "third") }
        guard case .storeMissing? = error?.failure(as: PostFailure.self) else {
            Issue.record("a store never seen was not refused: \(String(describing: error))")
            return
        }
        // That one may be meant to be made, or mistyped.
        #expect(error?.advice.map(\.setting) == [.storeDirectory, .createStoreDirectory])

        // The disk is back: the waiting post goes.
        try FileManager.default.moveItem(atPath: root + "/unplugged", toPath: root + "/disk")
        let back = try OutboxUploader(outbox: outbox, backend: backend, policy: RetryPolicy(maximumAttempts: 1), poster: Posters.jpeg, log: { _ in }).flush()
        #expect(back.uploaded.map(\.id) == [second.metadata.id] && outbox.items().isEmpty)
    }
}
