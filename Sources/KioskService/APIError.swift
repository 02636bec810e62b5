import FoundationEssentials
package import HTTPTypes
import Hummingbird
package import Settings
import SystemSupport

/// A failed API request: an HTTP status, a message that names the fix (for the operator), one
/// plain sentence for a guest, and what happened (the core's `RecorderError.Kind`, by name), sent
/// as `{"error": ..., "guestMessage": ..., "kind": ..., "status": ...}`.
package struct APIError: Error, Sendable {
    package var status: HTTPResponse.Status
    package var message: String
    /// What a guest is told (GuestStrings), by key for the page's language.
    package var guestKey: GuestStrings.Key
    /// What happened, as the core names it.
    package var kind: RecorderError.Kind

    package init(_ status: HTTPResponse.Status, _ message: String, kind: RecorderError.Kind, guestKey: GuestStrings.Key? = nil) {
        self.status = status
        self.message = message
        self.kind = kind
        self.guestKey = guestKey ?? GuestWording.key(for: kind)
    }

    /// The HTTP meaning of each kind of failure: a busy camera is a conflict, a missing one unavailable.
    package init(_ error: RecorderError) {
        let status: HTTPResponse.Status
        switch error.kind {
        case .invalidRequest, .badData: status = .badRequest
        case .notFound: status = .notFound
        case .busy: status = .conflict
        case .unavailable: status = .serviceUnavailable
        case .denied: status = .forbidden
        case .ioFailure: status = .init(code: 507, reasonPhrase: "Insufficient Storage")
        case .internalFailure, .cannotWrite, .misconfigured, .interrupted: status = .internalServerError
        }
        // The kiosk spells settings as configuration keys: its operator has no command line.
        self.init(status, OperatorWords.text(error), kind: error.kind, guestKey: GuestWording.key(for: error))
    }

    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message, kind: .invalidRequest) }

    var response: Response {
        KioskAPI.encoded(Body(error: message, guestMessage: GuestStrings.text(guestKey), guestKey: guestKey.rawValue,
                              kind: kind.rawValue, status: status.code),
                         status: status)
    }

    private struct Body: Encodable {
        var error: String
        var guestMessage: String
        var guestKey: String
        var kind: String
        var status: Int
    }
}
