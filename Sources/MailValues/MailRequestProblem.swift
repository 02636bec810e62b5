package import SystemSupport

/// Why a guest's mail could not be queued, as data; the edge words it.
package enum MailRequestProblem: Error, Sendable, Equatable, Encodable {
    /// The address is not one this recorder sends to.
    case address(MailAddress.Problem)
    /// The job could not be written (the outbox's disk).
    case file(FileSystem.Failure)
}
