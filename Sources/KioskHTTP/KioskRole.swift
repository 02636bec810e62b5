/// Who a request comes from, by the token it presented: the booth's own screen or the operator.
/// The operator may do everything the booth may.
package enum KioskRole: String, Sendable, Codable {
    /// The booth's screen (`kiosk.booth_token_file`): the guest page's calls.
    case booth
    /// The operator (`kiosk.token_file`): everything.
    case `operator`
}

/// Who may call a route. Every route of the kiosk says which, and nothing else decides: a route
/// added without one does not compile (`GuardedRoutes`).
package enum RouteAccess: String, Sendable, Codable {
    /// Anyone on the network: the pages' empty shells and their files, health as ok/not ok, logging
    /// in and out, and a share link's page and video (the link is the capability).
    case `public`
    /// The booth's token or the operator's.
    case booth
    /// The operator's token only.
    case `operator`

    /// Whether a request from `role` (nil: no valid token) may call the route.
    package func admits(_ role: KioskRole?) -> Bool {
        switch self {
        case .public: true
        case .booth: role != nil
        case .operator: role == .operator
        }
    }
}
