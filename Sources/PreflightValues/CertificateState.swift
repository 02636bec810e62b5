/// One TLS certificate the booth's proxy serves, as `recorder doctor` finds it.
package enum CertificateState: Sendable, Equatable, Codable {
    /// Valid for `daysLeft` more days.
    case valid(path: String, subject: String, notAfter: String, daysLeft: Int)
    /// Valid, but for fewer than `CertificateCheck.warningDays` more days.
    case expiring(path: String, subject: String, notAfter: String, daysLeft: Int)
    /// Expired `daysAgo` days ago: phones refuse the proxy.
    case expired(path: String, subject: String, notAfter: String, daysAgo: Int)
    /// Not valid before `notBefore` (a clock behind, or a certificate made for later).
    case notYetValid(path: String, subject: String, notBefore: String)
    /// The file cannot be read, or holds no certificate.
    case unreadable(path: String)

    package var status: PreflightCheck.Status {
        switch self {
        case .valid: .ok
        case .expiring: .warning
        case .expired, .notYetValid, .unreadable: .error
        }
    }
}
