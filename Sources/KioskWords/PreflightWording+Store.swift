import Glibc
import PreflightValues
import StoreValues
import SystemSupport
import Failures

extension PreflightWording {
    /// The disks: the hours left where videos pile up, or a place with no room for one shot.
    static func disk(hours: Double, kbps: Int, constantQuality: Bool, shotBytes: Int64, places: [DiskPlace],
                     status: PreflightCheck.Status) -> (String, String?) {
        let rate = "\(kbps) kbit/s\(constantQuality ? " (an estimate for constant quality; shoot.bitrate sets it)" : "")"
        if let full = places.first(where: { $0.freeBytes.map { $0 < shotBytes } ?? false }) {
            return ("the \(full.role.rawValue) (\(full.path)) has \(ByteCount.human(full.freeBytes ?? 0)) free: not enough for one more shot (\(ByteCount.human(shotBytes)))",
                    "free space there, or point \(key(full.role)) at a bigger disk")
        }
        if let unknown = places.first(where: { $0.freeBytes == nil }) {
            return ("cannot tell the free space of the \(unknown.role.rawValue) (\(unknown.path))", "check that \(key(unknown.role)) is on a mounted disk")
        }
        let fullest = places.filter(\.keepsVideos).min { ($0.freeBytes ?? 0) < ($1.freeBytes ?? 0) }
        let place = fullest.map { " (\($0.role.rawValue): \(ByteCount.human($0.freeBytes ?? 0)) free on \($0.path))" } ?? ""
        let left = hours < 1 ? "about \(Int(hours * 60)) min" : hours >= 100 ? "over 100 h" : "about \(number((hours * 10).rounded(.down) / 10)) h"
        let what = "room for \(left) of recording at \(rate)\(place)"
        guard status != .ok, let fullest else { return (what, nil) }
        return (what, "free space there (videos already in the store, old shots), point \(key(fullest.role)) at a bigger disk, or lower shoot.bitrate")
    }

    /// The setting that moves a place.
    static func key(_ role: DiskPlace.Role) -> String {
        switch role {
        case .workspace: "workspace"
        case .outbox: "outbox"
        case .store: "local.path"
        }
    }

    /// The store's round trip and the outbox.
    static func store(_ finding: PreflightFinding) -> (String, String?) {
        switch finding {
        case .storeRoundTrip(let destination, _, let milliseconds):
            return ("\(destination): a probe written, read back and deleted in \(milliseconds) ms", nil)
        case .storeFailed(let destination, let step, let fault):
            return ("\(destination) refused the probe's \(step.rawValue): \(faultText(fault))", faultFix(fault))
        case .storeUnconfigured(let problem):
            return ("its settings make no store: \(problem)", "fix them (recorder config check)")
        case .probeLeft(let destination, let key, let fault):
            return ("the probe could not be deleted from \(destination) (\(key)): \(faultText(fault))",
                    "delete it by hand; moderation and retention delete the same way: let the credentials delete")
        case .outboxEmpty(let path):
            return ("nothing waits for the store (\(path))", nil)
        case .outboxQueued(_, let depth, let oldest, let age, let lastFailure, let recorded, let elsewhere):
            let others = elsewhere > 0 ? " (\(elsewhere) of them for another store)" : ""
            let lastError = lastFailure.map { OperatorWords.message(.storage($0)) } ?? recorded
            return ("\(depth) post(s) wait for the store\(others), the oldest for \(duration(age)) (since \(oldest))\(lastError.map { "; last error: \($0)" } ?? "")",
                    "they go up once the store answers (recorder outbox lists them)\(elsewhere > 0 ? "; recorder outbox retarget --all sends the others to this store" : "")")
        case .outboxUnreadable(_, let entries):
            return ("\(entries.count) queued entr\(entries.count == 1 ? "y" : "ies") cannot be read: \(entries.joined(separator: ", "))",
                    "repair or move them by hand (recorder outbox lists them)")
        case .outboxUnwritable(let path, let code):
            return ("\(path) cannot be written (\(errorText(code))): no post could be queued",
                    "let the kiosk's user write there, or set outbox to a directory it can")
        default:
            return ("", nil)
        }
    }

    /// "3 min", "2 h 5 min", "4 days".
    static func duration(_ seconds: Int) -> String {
        if seconds < 120 { return "\(seconds) s" }
        if seconds < 7200 { return "\(seconds / 60) min" }
        if seconds < 172_800 { return "\(seconds / 3600) h \(seconds % 3600 / 60) min" }
        return "\(seconds / 86_400) days"
    }

    static func faultText(_ fault: StoreFault) -> String {
        switch fault {
        case .network(let code): "no answer (libcurl error \(code))"
        case .http(let status, let code): "it answered \(status)\(code.map { " \($0)" } ?? "")"
        case .denied: "the credentials were refused"
        case .missing: "the bucket or directory does not exist"
        case .local(let code): errorText(code)
        case .configuration(let reason): OperatorWords.message(.storage(StorageError(.configuration, reason, retryable: false)))
        case .mismatch: "what came back differs from what was written"
        }
    }

    static func faultFix(_ fault: StoreFault) -> String {
        switch fault {
        case .network: "check the network and s3.endpoint (and the unit's IPAddressAllow= for a store beyond the local network)"
        case .http(let status, _) where status >= 500: "the store has trouble: check again later"
        case .http: "check s3.bucket, s3.region and s3.addressing"
        case .denied: "check the credentials (s3.credentials_file) and what the bucket's policy allows"
        case .missing: "create the bucket, or mount or create local.path (local.create = true)"
        case .local(let code) where code == ENOSPC: "free space on the store's disk"
        case .local(let code) where code == ENOENT: "mount the store's disk, or create local.path (local.create = true)"
        case .local: "let the kiosk's user write to local.path"
        case .configuration: "fix the store's settings (recorder config check)"
        case .mismatch: "something between here and the store changes what it stores"
        }
    }
}
