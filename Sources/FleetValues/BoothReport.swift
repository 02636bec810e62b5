/// One booth of the fleet as a reader of the store judged it (`FleetJudge`): its last heartbeat,
/// how old it is, whether the booth counts as online, and its problems.
package struct BoothReport: Sendable, Equatable {
    /// `kiosk.id`, from the object's key (a heartbeat that cannot be read still has one).
    package var kiosk: String
    /// The heartbeat, when it could be read.
    package var heartbeat: Heartbeat?
    /// Seconds since the heartbeat was written, by the store's clock where it gives one.
    package var ageSeconds: Int
    /// A heartbeat came within `FleetJudge.offlineIntervals` of the booth's interval.
    package var online: Bool
    /// Nothing wrong is empty; offline is a problem too.
    package var problems: [BoothProblem]

    package init(kiosk: String, heartbeat: Heartbeat?, ageSeconds: Int, online: Bool, problems: [BoothProblem]) {
        self.kiosk = kiosk
        self.heartbeat = heartbeat
        self.ageSeconds = ageSeconds
        self.online = online
        self.problems = problems
    }

    /// Online and without a problem.
    package var isWell: Bool { online && problems.isEmpty }
}
