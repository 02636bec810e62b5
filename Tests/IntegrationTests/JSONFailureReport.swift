import Foundation
import Testing

/// How a `--json` command failed, as a script reads it: the exit status, the failure's kind
/// (`RecorderError.Kind`) and its case (`PostFailure.noFinishedShot`, or `storage`, `capture`...).
/// Tests judge these, not the words (the words are for a person, and `EdgeWordsTests` pins them).
struct Failed: Equatable, CustomStringConvertible {
    var status: Int32
    var kind: String?
    var failure: String?

    init(_ status: Int32, _ kind: String?, _ failure: String? = nil) {
        self.status = status
        self.kind = kind
        self.failure = failure
    }

    var description: String { "\(status) \(kind ?? "-") \(failure ?? "-")" }
}

/// The failure a `--json` command reported on standard output (its last JSON object), with the
/// process's exit status; an issue is recorded when the document's `exitStatus` is not the process's.
func failed(_ output: Tools.Output, sourceLocation: SourceLocation = #_sourceLocation) -> Failed {
    guard let line = output.stdout.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
          let document = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        Issue.record("no JSON failure (status \(output.status)): \(output.stdout) \(output.stderr)", sourceLocation: sourceLocation)
        return Failed(output.status, nil)
    }
    if document["exitStatus"] as? Int != Int(output.status) {
        Issue.record("exitStatus \(document["exitStatus"] ?? "none") but the process ended \(output.status): \(line)", sourceLocation: sourceLocation)
    }
    if (document["error"] as? String)?.isEmpty != false {
        Issue.record("a failure without words for a person: \(line)", sourceLocation: sourceLocation)
    }
    return Failed(output.status, document["kind"] as? String, document["failure"] as? String)
}

/// Why a `post --json` left its post queued (its document's `kind` and `failure`), with the
/// process's exit status; an issue is recorded when the document is not a queued post's.
func queued(_ output: Tools.Output, sourceLocation: SourceLocation = #_sourceLocation) -> Failed {
    guard let line = output.stdout.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
          let document = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          document["status"] as? String == "queued" else {
        Issue.record("no queued post (status \(output.status)): \(output.stdout) \(output.stderr)", sourceLocation: sourceLocation)
        return Failed(output.status, nil)
    }
    if (document["error"] as? String)?.isEmpty != false {
        Issue.record("a queued post without words for a person: \(line)", sourceLocation: sourceLocation)
    }
    return Failed(output.status, document["kind"] as? String, document["failure"] as? String)
}

/// The failure's data a `--json` command reported (its document's `data`: the case's values by
/// label), or an empty dictionary (and an issue) when it has none.
func failureData(_ output: Tools.Output, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
    guard let line = output.stdout.split(separator: "\n").last(where: { $0.hasPrefix("{") }),
          let document = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
          let data = document["data"] as? [String: Any] else {
        Issue.record("no failure data (status \(output.status)): \(output.stdout) \(output.stderr)", sourceLocation: sourceLocation)
        return [:]
    }
    return data
}
