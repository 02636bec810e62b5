package import PreflightValues

/// A preflight as JSON, for the operator page (`GET /api/admin/preflight`) and `recorder doctor
/// --json`: whether the event can start, the counts, and each check with its data and, beside
/// them, the operator's words.
package struct PreflightDocument: Encodable, Sendable {
    package var ready: Bool
    package var errors: Int
    package var warnings: Int
    package var checks: [Entry]

    package init(_ report: PreflightReport) {
        ready = report.ready
        errors = report.count(.error)
        warnings = report.count(.warning)
        checks = report.checks.map { Entry(check: $0, words: PreflightWording.words($0)) }
    }

    /// One check: `id`, `status`, `finding` (its case and data), `milliseconds`, and `title`,
    /// `what`, `fix` (the words).
    package struct Entry: Encodable, Sendable {
        package var check: PreflightCheck
        package var words: PreflightWording.Words

        enum CodingKeys: String, CodingKey { case id, status, finding, milliseconds, title, what, fix }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(check.id, forKey: .id)
            try container.encode(check.status, forKey: .status)
            try container.encode(check.finding, forKey: .finding)
            try container.encode(check.milliseconds, forKey: .milliseconds)
            try container.encode(words.title, forKey: .title)
            try container.encode(words.what, forKey: .what)
            try container.encode(words.fix, forKey: .fix)
        }
    }
}
