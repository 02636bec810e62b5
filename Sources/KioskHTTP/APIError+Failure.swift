package import HTTPTypes
package import Settings
import KioskWords
package import Failures

extension APIError {
    /// What failed. The recorder's own failures keep their kind (`RecorderError.Kind`); what only
    /// HTTP has - no token, a method the path does not take, a Host that is not the kiosk's, too
    /// many at once, a body too large - has cases of its own. Each case has one status, here, and
    /// nowhere else.
    package enum Failure: Sendable, Equatable {
        case recorder(RecorderError.Kind)
        /// No valid token (401, with `WWW-Authenticate`).
        case unauthorized
        /// The path takes other methods (405, with `Allow`).
        case methodNotAllowed
        /// A Host the kiosk does not answer to (421: DNS rebinding).
        case misdirected
        /// Too many of something at once from this client or from everybody, or too many wrong
        /// tokens (429).
        case tooMany
        /// A body larger than the kiosk takes (413).
        case tooLarge
        /// A request whose body came too slowly, or not whole in time (408).
        case tooSlow
        /// A body that is not JSON where JSON is asked for (415).
        case unsupportedMediaType
        /// A Post or Delete naming a shot that is no longer the current one (409): a late request
        /// never acts on the next guest's shot.
        case notCurrentShot
        /// The consent text the page showed is not the kiosk's any more (409): the page reloads.
        case consentChanged
        /// The booth cannot take a guest now (503): its camera is gone, its disk nearly full, or
        /// its store failing long enough that posts pile up (`OutOfService`). It comes back by itself.
        case outOfService

        /// The HTTP status of each failure: the one mapping.
        package var status: HTTPResponse.Status {
            switch self {
            case .recorder(let kind):
                switch kind {
                case .invalidRequest, .badData: .badRequest
                case .notFound: .notFound
                case .busy: .conflict
                case .unavailable: .serviceUnavailable
                case .denied: .forbidden
                case .ioFailure: .init(code: 507, reasonPhrase: "Insufficient Storage")
                case .internalFailure, .cannotWrite, .misconfigured, .interrupted: .internalServerError
                }
            case .unauthorized: .unauthorized
            case .methodNotAllowed: .methodNotAllowed
            case .misdirected: .misdirectedRequest
            case .tooMany: .tooManyRequests
            case .tooLarge: .contentTooLarge
            case .tooSlow: .requestTimeout
            case .unsupportedMediaType: .unsupportedMediaType
            case .notCurrentShot, .consentChanged: .conflict
            case .outOfService: .serviceUnavailable
            }
        }

        /// The JSON's `kind`: the recorder's kind by its name, else the case's.
        package var kind: String {
            switch self {
            case .recorder(let kind): kind.rawValue
            case .unauthorized: "unauthorized"
            case .methodNotAllowed: "methodNotAllowed"
            case .misdirected: "misdirected"
            case .tooMany: "tooMany"
            case .tooLarge: "tooLarge"
            case .tooSlow: "tooSlow"
            case .unsupportedMediaType: "unsupportedMediaType"
            case .notCurrentShot: "notCurrentShot"
            case .consentChanged: "consentChanged"
            case .outOfService: "outOfService"
            }
        }

        /// What a guest is told when the route gives nothing more particular.
        var guestKey: GuestStrings.Key {
            switch self {
            case .recorder(let kind): GuestWording.key(for: kind)
            case .tooMany: .busy
            case .unauthorized, .misdirected: .notSaved
            case .methodNotAllowed, .tooLarge, .tooSlow, .unsupportedMediaType, .notCurrentShot: .tryAgain
            case .consentChanged: .consentChanged
            case .outOfService: .backSoon
            }
        }
    }
}
