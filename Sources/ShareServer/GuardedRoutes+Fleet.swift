package import Fleet
import FleetPage

extension GuardedRoutes {
    /// The fleet's page and data (FleetPage's routes, each with who may call it), mounted under the
    /// guard of whatever serves them like its own routes: the kiosk's, the share server's.
    package static func fleet(_ view: FleetView) -> GuardedRoutes {
        let routes = GuardedRoutes()
        for route in FleetRoutes.routes(view) {
            routes.add(route.method, route.path, route.access, route.summary, route.handler)
        }
        return routes
    }
}
