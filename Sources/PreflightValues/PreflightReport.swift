/// Every check of one run, errors first.
package struct PreflightReport: Sendable, Equatable, Codable {
    package var checks: [PreflightCheck]

    package init(_ checks: [PreflightCheck]) {
        self.checks = checks.sorted { ($0.status, $0.id) < ($1.status, $1.id) }
    }

    /// Whether nothing found would stop the event (warnings allowed).
    package var ready: Bool { !checks.contains { $0.status == .error } }

    /// How many checks came out `status`.
    package func count(_ status: PreflightCheck.Status) -> Int { checks.count { $0.status == status } }

    /// The check `id`, when it ran.
    package subscript(_ id: PreflightCheck.ID) -> PreflightCheck? { checks.first { $0.id == id } }
}
