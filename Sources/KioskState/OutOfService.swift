import FoundationEssentials
import SystemSupport

/// Why the booth cannot take a guest now (issue 42 item 5), each cause with its numbers: the
/// operator page and the journal say which and how far; the guest page only shows a calm "back in
/// a moment", and the booth comes back by itself when every cause has cleared.
package struct OutOfService: Sendable, Equatable {
    package enum Cause: Sendable, Equatable {
        /// The camera cannot be opened (why, as the probe found it).
        case cameraMissing(String)
        /// `path` has `free` bytes: less than `needed` for one more shot (or for queueing it).
        case diskNearlyFull(path: String, free: Int64, needed: Int64)
        /// `queued` posts wait while the store fails, the oldest for `waiting`, and the guests'
        /// links open only once their posts are in the store.
        case storeFailing(queued: Int, waiting: Duration, lastError: String)
    }

    package var causes: [Cause]

    /// The causes' names, as the JSON and the fleet's heartbeat give them: camera, disk, store.
    package var names: [String] {
        causes.map { cause in
            switch cause {
            case .cameraMissing: "camera"
            case .diskNearlyFull: "disk"
            case .storeFailing: "store"
            }
        }
    }

    package init(_ causes: [Cause]) {
        self.causes = causes
    }

    /// The causes in the operator's words, for `/healthz` and the journal.
    package var reasons: [String] {
        causes.map { cause in
            switch cause {
            case .cameraMissing(let why): "camera missing: \(why)"
            case .diskNearlyFull(let path, let free, let needed):
                "disk nearly full: \(ByteCount.human(free)) free in \(path), a shot needs \(ByteCount.human(needed))"
            case .storeFailing(let queued, let waiting, let lastError):
                "store failing: \(queued) post(s) queued, the oldest for \(waiting.components.seconds / 60) min, and the guests' links wait for the store (last error: \(lastError))"
            }
        }
    }
}

extension OutOfService: Encodable {
    private enum Keys: String, CodingKey { case causes }
    private enum CauseKeys: String, CodingKey { case cause, message, path, freeBytes, neededBytes, queued, waitingSeconds }

    /// `{"causes": [{"cause": "camera"|"disk"|"store", ...its numbers}]}`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        var list = container.nestedUnkeyedContainer(forKey: .causes)
        for cause in causes {
            var item = list.nestedContainer(keyedBy: CauseKeys.self)
            switch cause {
            case .cameraMissing(let why):
                try item.encode("camera", forKey: .cause)
                // (empty in the booth's view: `KioskStatus.boothView`)
                if !why.isEmpty { try item.encode(why, forKey: .message) }
            case .diskNearlyFull(let path, let free, let needed):
                try item.encode("disk", forKey: .cause)
                if !path.isEmpty { try item.encode(path, forKey: .path) }
                try item.encode(free, forKey: .freeBytes)
                try item.encode(needed, forKey: .neededBytes)
            case .storeFailing(let queued, let waiting, let lastError):
                try item.encode("store", forKey: .cause)
                try item.encode(queued, forKey: .queued)
                try item.encode(waiting.components.seconds, forKey: .waitingSeconds)
                if !lastError.isEmpty { try item.encode(lastError, forKey: .message) }
            }
        }
    }
}
