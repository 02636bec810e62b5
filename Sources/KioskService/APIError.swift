import FoundationEssentials
package import HTTPTypes
import Hummingbird
package import RecorderCore
import SystemSupport

/// A failed API request: an HTTP status, a message that names the fix (for the operator), one
/// plain sentence for a guest, and the CLI's exit status for the same failure, sent as
/// `{"error": ..., "guestMessage": ..., "exitStatus": ..., "status": ...}`.
package struct APIError: Error, Sendable {
    package var status: HTTPResponse.Status
    package var message: String
    /// What a guest is told (GuestStrings), by key for the page's language.
    package var guestKey: GuestStrings.Key
    package var exitStatus: SysExit

    package init(_ status: HTTPResponse.Status, _ message: String, exitStatus: SysExit, guestKey: GuestStrings.Key? = nil) {
        self.status = status
        self.message = message
        self.exitStatus = exitStatus
        self.guestKey = guestKey ?? GuestWording.key(for: RecorderError(message, exitStatus: exitStatus))
    }

    /// The HTTP meaning of each sysexits status: a busy camera is a conflict, a missing one unavailable.
    package init(_ error: RecorderError) {
        let status: HTTPResponse.Status
        switch error.exitStatus {
        case .usage, .dataError: status = .badRequest
        case .noInput: status = .notFound
        case .tempFail: status = .conflict
        case .unavailable: status = .serviceUnavailable
        case .noPermission: status = .forbidden
        case .ioError: status = .init(code: 507, reasonPhrase: "Insufficient Storage")
        case .ok, .software, .cantCreate, .config, .interrupted: status = .internalServerError
        }
        // The kiosk spells settings as configuration keys: its operator has no command line.
        self.init(status, error.text(), exitStatus: error.exitStatus, guestKey: GuestWording.key(for: error))
    }

    static func badRequest(_ message: String) -> APIError { APIError(.badRequest, message, exitStatus: .usage) }

    var response: Response {
        KioskAPI.encoded(Body(error: message, guestMessage: GuestStrings.text(guestKey), guestKey: guestKey.rawValue,
                              exitStatus: Int(exitStatus.rawValue), status: status.code),
                         status: status)
    }

    private struct Body: Encodable {
        var error: String
        var guestMessage: String
        var guestKey: String
        var exitStatus: Int
        var status: Int
    }
}
