/// One check of the preflight (`recorder doctor`, and the operator page's list): what was checked,
/// what it found (a case with its data: numbers, paths, the setting concerned) and how long it
/// took. The status follows from the finding; the words are the edges': the CLI's table and the
/// operator page's list.
package struct PreflightCheck: Sendable, Equatable, Codable {
    /// What is checked, in the order the table lists them when all is well.
    package enum ID: String, Sendable, Codable, CaseIterable, Comparable {
        case configuration, camera, microphone, trigger, disk, clock, store, outbox, tokens
        case shareLinks = "share-links"
        case tls, wifi, service

        package static func < (a: ID, b: ID) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    /// What the finding means for the event: `error` would stop it, `warning` is worth a look,
    /// `skipped` was not checked (nothing to check, or it cannot be checked from here).
    package enum Status: String, Sendable, Codable, CaseIterable, Comparable {
        case error, warning, ok, skipped

        /// Errors first, then warnings, then the rest.
        package static func < (a: Status, b: Status) -> Bool {
            allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
        }
    }

    package var id: ID
    package var finding: PreflightFinding
    /// How long the check took.
    package var milliseconds: Int

    package init(_ id: ID, _ finding: PreflightFinding, milliseconds: Int = 0) {
        self.id = id
        self.finding = finding
        self.milliseconds = milliseconds
    }

    package var status: Status { finding.status }

    enum CodingKeys: String, CodingKey { case id, status, finding, milliseconds }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(ID.self, forKey: .id)
        finding = try container.decode(PreflightFinding.self, forKey: .finding)
        milliseconds = try container.decode(Int.self, forKey: .milliseconds)
    }

    /// `{"id": "disk", "status": "error", "finding": {"lowOnRoom": {...}}, "milliseconds": 3}`.
    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(status, forKey: .status)
        try container.encode(finding, forKey: .finding)
        try container.encode(milliseconds, forKey: .milliseconds)
    }
}
