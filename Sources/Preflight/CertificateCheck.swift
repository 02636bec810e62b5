package import FoundationEssentials
import Glibc
import Settings
import StorageUpload
package import SystemSupport
package import PreflightValues

/// The TLS certificates the booth's proxy serves (nginx-recorder.conf's booth.crt, the Wi-Fi's
/// share.crt): every `*.crt` and `*.pem` holding a certificate in the directory, and when each
/// expires. Phones refuse an expired one outright.
package enum CertificateCheck {
    /// Fewer days left than this is a warning: renew before the event.
    package static let warningDays = 14

    /// Blocking (the files).
    package static func look(directory: String, now: Date = Date()) -> PreflightFinding {
        let names = DirectoryListing.namesIfReadable(directory).filter { $0.hasSuffix(".crt") || $0.hasSuffix(".pem") }.sorted()
        var states: [CertificateState] = []
        for name in names {
            let path = directory + "/" + name
            guard let text = contents(of: path) else {
                states.append(.unreadable(path: path))
                continue
            }
            // A .pem may hold only a key: not a certificate to look at.
            if name.hasSuffix(".pem") && !text.contains(Array("-----BEGIN CERTIFICATE-----".utf8)) { continue }
            guard let dates = CertificateDates(pem: text) else {
                states.append(.unreadable(path: path))
                continue
            }
            states.append(state(path: path, dates, now: now))
        }
        return states.isEmpty ? .noCertificates(directory: directory) : .certificates(states)
    }

    static func state(path: String, _ dates: CertificateDates, now: Date) -> CertificateState {
        let day = 86_400.0
        if now < dates.notBefore { return .notYetValid(path: path, subject: dates.subject, notBefore: RFC3339.string(dates.notBefore)) }
        let left = dates.notAfter.timeIntervalSince(now)
        let notAfter = RFC3339.string(dates.notAfter)
        if left < 0 { return .expired(path: path, subject: dates.subject, notAfter: notAfter, daysAgo: Int(-left / day)) }
        let days = Int(left / day)
        return days < warningDays ? .expiring(path: path, subject: dates.subject, notAfter: notAfter, daysLeft: days)
            : .valid(path: path, subject: dates.subject, notAfter: notAfter, daysLeft: days)
    }

    private static func contents(of path: String) -> [UInt8]? {
        guard let fd = try? Posix.open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        defer { Posix.closeAfterUse(fd) }
        return try? Posix.readAll(fd, limit: 1 << 20)
    }
}
