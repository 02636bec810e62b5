import Hummingbird
import KioskWords
import KioskHTTP
import ShareServer
import KioskState

/// `GET /api/admin/preflight`: the checks before an event (as `recorder doctor` runs them), run
/// inside the kiosk for the operator page, which shows them at its top.
enum PreflightRoutes {
    static func collection(_ preflight: PreflightService) -> GuardedRoutes {
        let routes = GuardedRoutes()
        routes.get("preflight", .operator, "runs the preflight (recorder doctor's checks, without taking the camera or the microphone): each check's status, data and words") { _, _ in
            HTTPAnswer.encoded(PreflightDocument(await preflight.run()))
        }
        return routes
    }
}
