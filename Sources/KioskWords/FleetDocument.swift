package import FleetValues

/// The fleet as JSON, for `recorder fleet --json` and the fleet page (`GET /api/fleet`): the counts,
/// then each booth, newest heartbeat first, with its problems' data and, beside them, the
/// operator's words, and its last heartbeat whole.
package struct FleetDocument: Encodable, Sendable {
    package var booths: [Booth]
    package var online: Int
    package var offline: Int
    /// Online booths with a problem.
    package var troubled: Int
    /// When the store was read (RFC 3339).
    package var readAt: String
    /// Why the store could not be read (then `booths` is what was known before, or this booth alone).
    package var storeError: String?
    /// When `booths` was read from the store, when that was before `readAt`.
    package var boothsAsOf: String?

    package init(_ reports: [BoothReport], readAt: String, storeError: String? = nil, asOf: String? = nil) {
        booths = reports.map(Booth.init)
        online = reports.count { $0.online }
        offline = reports.count { !$0.online }
        troubled = reports.count { $0.online && !$0.problems.isEmpty }
        self.readAt = readAt
        self.storeError = storeError
        boothsAsOf = asOf
    }

    private enum CodingKeys: String, CodingKey { case booths, online, offline, troubled, readAt, storeError, asOf = "boothsAsOf" }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(booths, forKey: .booths)
        try c.encode(online, forKey: .online)
        try c.encode(offline, forKey: .offline)
        try c.encode(troubled, forKey: .troubled)
        try c.encode(readAt, forKey: .readAt)
        try c.encode(storeError, forKey: .storeError)
        try c.encode(boothsAsOf, forKey: .asOf)
    }

    package struct Booth: Encodable, Sendable {
        package var report: BoothReport

        init(_ report: BoothReport) { self.report = report }

        private enum CodingKeys: String, CodingKey { case kiosk, name, online, well, ageSeconds, state, version, problems, heartbeat }

        package func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(report.kiosk, forKey: .kiosk)
            try c.encode(report.heartbeat?.name, forKey: .name)
            try c.encode(report.online, forKey: .online)
            try c.encode(report.isWell, forKey: .well)
            try c.encode(report.ageSeconds, forKey: .ageSeconds)
            try c.encode(report.heartbeat?.state, forKey: .state)
            try c.encode(report.heartbeat?.version, forKey: .version)
            try c.encode(report.problems.map(Problem.init), forKey: .problems)
            try c.encode(report.heartbeat, forKey: .heartbeat)
        }
    }

    /// One problem: its name and numbers (`BoothProblem`'s encoding), then `title`, `what`, `fix`.
    package struct Problem: Encodable, Sendable {
        package var problem: BoothProblem

        private enum CodingKeys: String, CodingKey { case title, what, fix }

        package func encode(to encoder: any Encoder) throws {
            try problem.encode(to: encoder)
            let words = FleetWording.words(problem)
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(words.title, forKey: .title)
            try c.encode(words.what, forKey: .what)
            try c.encode(words.fix, forKey: .fix)
        }
    }
}
