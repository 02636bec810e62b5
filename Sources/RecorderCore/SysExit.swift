/// Exit statuses from BSD's sysexits.h, so scripts and systemd can tell failures apart.
package enum SysExit: Int32, Sendable {
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
}
