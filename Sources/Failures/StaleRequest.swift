/// A guest's request that came after its guest had moved on: it names a shot or post that is not
/// the booth's current one any more, so it never acts on the next guest's (HTTP 409).
package enum StaleRequest: Sendable, Equatable {
    /// A Post naming shot `asked`, while the current shot is `current` (nil: there is none).
    case post(asked: String, current: String?)
    /// A mail asked for post `id` after its guest's thank-you ended.
    case mail(post: String)
}
