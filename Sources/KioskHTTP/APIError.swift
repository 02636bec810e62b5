package import FoundationEssentials
package import HTTPTypes
package import Hummingbird
package import Settings
package import KioskWords
package import Failures

/// A failed API request, as Hummingbird's `HTTPResponseError`: a route throws it and the router
/// answers with it. What failed is a `Failure`, whose one mapping (`APIError+Failure.swift`) gives
/// the HTTP status and the `kind` the JSON names; beside it the operator's message (which names
/// the fix) and one plain sentence for a guest (by key, for the page's language). Sent as
/// `{"error": ..., "guestMessage": ..., "guestKey": ..., "kind": ..., "status": ...}`.
package struct APIError: HTTPResponseError, Sendable {
    package var failure: Failure
    package var message: String
    /// What a guest is told (GuestStrings), by key for the page's language.
    package var guestKey: GuestStrings.Key

    package init(_ failure: Failure, _ message: String, guestKey: GuestStrings.Key? = nil) {
        self.failure = failure
        self.message = message
        self.guestKey = guestKey ?? failure.guestKey
    }

    /// A failure of the recorder's own (the camera, the store, the workspace), by its kind.
    package init(_ error: RecorderError) {
        // The kiosk spells settings as configuration keys: its operator has no command line.
        self.init(.recorder(error.kind), OperatorWords.text(error), guestKey: GuestWording.key(for: error))
    }

    /// A guest's request about a shot or post that is not the booth's current one any more (409).
    package init(_ stale: StaleRequest) {
        self.init(.notCurrentShot, OperatorWords.text(stale))
    }

    /// A request the route cannot take as it is (400).
    package static func badRequest(_ message: String) -> APIError { APIError(.recorder(.invalidRequest), message) }

    /// The one status of this failure.
    package var status: HTTPResponse.Status { failure.status }

    /// What happened, as the JSON's `kind` names it.
    package var kind: String { failure.kind }

    package func response(from request: Request, context: some RequestContext) throws -> Response {
        response
    }

    /// The JSON answer.
    package var response: Response {
        HTTPAnswer.encoded(body, status: status)
    }

    /// The answer's JSON alone (for an answer written below the router: `RequestPace`).
    package var json: Data {
        (try? HTTPAnswer.jsonEncoder.encode(body)) ?? Data()
    }

    private var body: Body {
        Body(error: message, guestMessage: GuestStrings.text(guestKey), guestKey: guestKey.rawValue, kind: kind, status: status.code)
    }

    private struct Body: Encodable {
        var error: String
        var guestMessage: String
        var guestKey: String
        var kind: String
        var status: Int
    }
}
