import FoundationEssentials
import HTTPTypes
package import Hummingbird
import NIOCore
package import Logging
package import Settings
package import Library
package import Publishing
package import SystemSupport
package import Failures
package import KioskHTTP
package import Fleet

/// `recorder serve`'s composition root: the share links' posts, the host's galleries and the
/// limits on what may be open at once, built once from the configuration (the store, the cache,
/// share.*) and `serve.*`; the router hands each route collection the few it uses. No camera, no
/// microphone, no outbox, no shots, no kiosk page or API: what a phone and a host reach, and, with
/// the operator's token (`serve.token_file`), the fleet page for the operator; nothing else.
/// Nothing is kept between requests that another server would not know: every answer comes from
/// the store (the cache only spares it fetching a video twice; a login is a cookie sealed under
/// the token), so any number of these behind a load balancer answer alike, and one can be stopped
/// at any moment.
package struct ShareServices: Sendable {
    package let settings: ServeSettings
    package let posts: SharedPosts
    package let galleries: HostGalleries
    package let connections: ConnectionLimits
    /// Videos being sent (share links' and galleries'), as the kiosk counts its own.
    package let videos: ClientSlots
    /// Archives being sent (Download all): each holds two pieces of the store's in memory.
    package let archives: ClientSlots
    package let logger: Logger
    package let clock: any RecorderClock
    /// The operator (`serve.token_file`) and the fleet as the store's heartbeats tell it; nil
    /// without a token: no fleet page, no login.
    package let fleet: (access: ServeOperator, view: FleetView)?

    /// `loopGIF` makes a boomerang's GIF (the host's encoder: this module has none); nil: the
    /// share page offers none.
    package init(settings: ServeSettings, configuration: RecorderConfiguration, logger: Logger, clock: any RecorderClock = .system,
                 loopGIF: SharedPosts.LoopGIFMaker? = nil) throws(RecorderError) {
        self.settings = settings
        self.logger = logger
        self.clock = clock
        let store = try configuration.makeBackend()
        posts = SharedPosts(store: store, cache: VideoCache(settings: try configuration.videoCacheSettings()), share: try ShareLinks(configuration),
                            loopGIF: loopGIF)
        galleries = HostGalleries(posts: posts)
        connections = ConnectionLimits(total: settings.maxConnections, perClient: settings.maxConnectionsPerClient)
        videos = ClientSlots("videos", total: 1024, perClient: 4)
        archives = ClientSlots("archives", total: 8, perClient: 2)
        fleet = try settings.token.map { token throws(RecorderError) in
            (ServeOperator(token: token, clock: clock), FleetView(store: try HeartbeatStore(configuration), clock: clock))
        }
    }

    /// The route collections, each under its prefix: the share links, the host's galleries, the
    /// pages' files and the health check, and with the operator's token the fleet page and the
    /// login it needs. `more` adds collections of other subjects.
    package func collections(more: [(prefix: String, routes: GuardedRoutes)] = []) -> [(prefix: String, routes: GuardedRoutes)] {
        let language = settings.language
        let pageLanguage: @Sendable (Request) -> String = { PageLanguage.chosen($0, fallback: language) }
        let place = ShareRoutes.Place(mayClaim: { _ in false }, deleted: {}, unopened: .notYet, language: pageLanguage, event: settings.event)
        return [
            ("/s", ShareRoutes.collection(posts: posts, videos: videos, place: place, logger: logger, clock: clock)),
            ("/g", HostGalleryRoutes.collection(galleries: galleries, videos: videos, archives: archives, language: pageLanguage, clock: clock)),
            ("", Self.plumbing()),
        ] + (fleet.map { [("", ServeLoginRoutes.collection($0.access, logger: logger)), ("", GuardedRoutes.fleet($0.view))] } ?? []) + more
    }

    /// The pages' scripts and style sheets, and `/healthz` for the load balancer.
    static func plumbing() -> GuardedRoutes {
        let routes = GuardedRoutes()
        routes.get("/assets/:file", .public, "the pages' scripts and style sheets") { _, context in
            ShareFiles.asset(context.parameters.get("file") ?? "") ?? PageText.page("", status: .notFound)
        }
        routes.get("/healthz", .public, "ok while the server runs (200)") { _, _ in
            HTTPAnswer.encoded(["healthy": true])
        }
        return routes
    }

    /// The router: the guard, then every collection; anything else is a plain 404.
    package func router(more: [(prefix: String, routes: GuardedRoutes)] = []) -> (router: Router<KioskRequestContext>, routes: [KioskRoute]) {
        let router = Router(context: KioskRequestContext.self, options: .autoGenerateHeadEndpoints)
        router.add(middleware: ServeGuard(proxies: settings.proxies, access: fleet?.access))
        var table: [KioskRoute] = []
        for (prefix, collection) in collections(more: more) {
            router.addRoutes(collection.collection, atPath: RouterPath(prefix))
            table += collection.routes.map { route in
                var route = route
                route.path = "/" + (prefix + "/" + route.path).split(separator: "/").joined(separator: "/")
                return route
            }
        }
        return (router, table)
    }
}
