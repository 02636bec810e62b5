import FoundationEssentials
import Logging
package import Publishing
package import Settings
import Shooting
import SystemSupport
import KioskHTTP
import KioskState
import ShareServer
package import Failures
import Posting

/// A guest's shot made a post, or deleted: queued durably in the outbox while the camera holds
/// the current shot still, the drain woken to send it, its share link learnt (so it opens from
/// the queued copy at once), and the guest's flow told (their yes ends; their thank-you may show
/// this post's link). Exactly as `recorder post` does it, with the same enqueuer.
package final class PostingDesk: Sendable {
    private let manager: CameraManager
    private let workspace: ShotWorkspace
    private let enqueuer: PostEnqueuer
    private let drain: OutboxDrain
    private let shareTokens: ShareTokenIndex
    /// Where a post's delete claim waits for the guest's phone; nil: no phone may delete.
    private let claims: ShareClaims?
    private let guests: GuestCoordinator
    private let events: EventStream
    private let metrics: KioskMetrics
    private let logger: Logger

    init(manager: CameraManager, enqueuer: PostEnqueuer, drain: OutboxDrain, shareTokens: ShareTokenIndex, claims: ShareClaims?,
         guests: GuestCoordinator, events: EventStream, metrics: KioskMetrics, logger: Logger) {
        self.manager = manager
        workspace = manager.workspace
        self.enqueuer = enqueuer
        self.drain = drain
        self.shareTokens = shareTokens
        self.claims = claims
        self.guests = guests
        self.events = events
        self.metrics = metrics
        self.logger = logger
    }

    /// Queues the current shot as a post, whichever it is (the operator's tools and tests).
    package func post(caption: String) async throws(RecorderError) -> OutboxItem {
        switch try await enqueue(caption: caption, shotID: nil) {
        case .queued(let item): return item
        case .notCurrent: throw .post(.noFinishedShot(workspace: workspace.root))
        }
    }

    /// A guest's Post: queues shot `shotID` when it is still the current shot. A Post that comes
    /// late (retried, or sent from a review that has ended) never publishes the next guest's
    /// shot: it is refused (409).
    func post(shotID: String, caption: String) async throws(APIError) -> OutboxItem {
        let outcome: Outcome
        do throws(RecorderError) {
            outcome = try await enqueue(caption: caption, shotID: shotID)
        } catch {
            throw APIError(error)
        }
        switch outcome {
        case .queued(let item): return item
        case .notCurrent(let current):
            throw APIError(.post(asked: shotID, current: current))
        }
    }

    enum Outcome: Sendable {
        case queued(OutboxItem)
        /// The shot asked for is not the current one (which is this, if any).
        case notCurrent(String?)
    }

    private func enqueue(caption: String, shotID: String?) async throws(RecorderError) -> Outcome {
        let enqueuer = self.enqueuer, workspace = self.workspace, claims = self.claims, logger = self.logger
        let outcome = try await manager.holdingCurrentShot { () async throws(RecorderError) -> Outcome in
            try await BlockingWork.run { () throws(RecorderError) -> Outcome in
                if let shotID {
                    let current = workspace.currentShotID()
                    guard current == shotID else { return .notCurrent(current) }
                }
                var plan = try enqueuer.joining(to: try enqueuer.plan(caption: caption, shotID: shotID))
                // The guest's delete claim, its hash in the post's metadata: any share server can
                // check the phone that takes it from the booth, at home too.
                plan.metadata.deleteClaim = claims.flatMap { Self.claim(plan.metadata.id, in: $0, logger: logger) }
                return .queued(try enqueuer.enqueue(plan))
            }
        }
        guard case .queued(let item) = outcome else { return outcome }
        metrics.postQueued()
        shareTokens.learn(token: item.metadata.shareToken, id: item.metadata.id)
        guests.handle(.posted(id: item.metadata.id))
        logger.notice("queued post \(item.metadata.id)")
        events.announce("posted")
        drain.wake()
        return outcome
    }

    /// Makes post `id`'s delete claim (`ShareClaims.prepare`): its hash, or nil when it cannot be
    /// kept (the post then goes without one: no phone may delete it, the operator can).
    private static func claim(_ id: String, in claims: ShareClaims, logger: Logger) -> String? {
        do throws(FileSystem.Failure) {
            return try claims.prepare(id)
        } catch {
            logger.warning("post \(id)'s delete claim could not be kept (no phone can delete it; the operator can): cannot \(error.operation) \(error.path) in kiosk.state_dir: \(error.errno.description)")
            return nil
        }
    }

    /// Deletes the current shot, when it is `shotID` and not posted: a guest's "Delete" in review.
    func discard(shotID: String) async throws(RecorderError) {
        let workspace = self.workspace, enqueuer = self.enqueuer
        try await manager.holdingCurrentShot { () async throws(RecorderError) in
            try await BlockingWork.run { () throws(RecorderError) in
                // (a moment's patience: ci6's loaded test process once found the lock still held
                // just after a shot, most likely by a child another test forked before its exec)
                let lock = try workspace.lock(patienceSeconds: 2)
                if let shot = workspace.currentShot(), shot.id == shotID, let error = enqueuer.alreadyPosted(shot) { throw error }
                try workspace.discardCurrent(id: shotID)
                _ = consume lock
            }
        }
        guests.handle(.deleted)
        logger.notice("shot \(shotID) deleted at the booth")
        events.announce("shot")
    }

    /// The workspace's current shot (a readlink and a JSON read, on a helper thread).
    func currentShot() async -> Shot? {
        let workspace = self.workspace
        return await BlockingWork.run { workspace.currentShot() }
    }
}
