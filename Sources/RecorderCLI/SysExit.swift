import Settings
import Failures

/// Exit statuses from BSD's sysexits.h, so scripts and systemd can tell failures apart.
enum SysExit: Int32, Sendable {
    case ok = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case unavailable = 69
    case software = 70
    case cantCreate = 73
    case ioError = 74
    case tempFail = 75
    case noPermission = 77
    case config = 78
    /// A second Ctrl-C: the shot was abandoned on purpose (128 + SIGINT, as shells report it).
    case interrupted = 130

    /// The status for what happened: the one place a failure's kind becomes a number.
    init(_ kind: RecorderError.Kind) {
        switch kind {
        case .invalidRequest: self = .usage
        case .badData: self = .dataError
        case .notFound: self = .noInput
        case .unavailable: self = .unavailable
        case .internalFailure: self = .software
        case .cannotWrite: self = .cantCreate
        case .ioFailure: self = .ioError
        case .busy: self = .tempFail
        case .denied: self = .noPermission
        case .misconfigured: self = .config
        case .interrupted: self = .interrupted
        }
    }
}

extension RecorderError {
    /// The sysexits status the CLI exits with for this failure.
    var exitStatus: SysExit { SysExit(kind) }
}
