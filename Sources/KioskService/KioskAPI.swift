import FoundationEssentials
import HTTPTypes
package import Hummingbird
import NIOCore
import Publishing
import SystemSupport
import Synchronization
import Settings
import KioskWords
package import KioskHTTP
import KioskState
package import ShareServer
import Failures
import Fleet

/// The kiosk's HTTP surface: the page, the control API, health and metrics. Each route
/// collection gets the few services it uses (`KioskServices` builds them all).
///
/// JSON in and out; failures are `APIError`s, sent as `{"error", "guestMessage", "kind", "status"}`,
/// `kind` naming what happened. Every route says who may call it (`RouteAccess`: public, the
/// booth's token, the operator's), checked inside the route the router matched; POSTs from another
/// origin are refused, so a web page elsewhere cannot drive the kiosk.
package enum KioskAPI {
    /// The kiosk's router and the table of its routes (who may call each).
    package static func router(_ kiosk: KioskServices) -> (router: Router<KioskRequestContext>, routes: [KioskRoute]) {
        // HEAD answers as GET without a body (uptime monitors use it).
        let router = Router(context: KioskRequestContext.self, options: .autoGenerateHeadEndpoints)
        let access = kiosk.access, settings = kiosk.settings
        router.add(middleware: KioskGuard(settings: settings, credentials: access.credentials, throttle: access.throttle))

        // One collection per concern, each route with who may call it; the table of them all
        // answers /api/admin/routes and 405's Allow header.
        let table = Mutex<[KioskRoute]>([])
        let collections: [(String, GuardedRoutes)] = [
            ("", ServiceRoutes.collection(language: settings.booth.language, consent: settings.consent, mail: kiosk.mail != nil, health: kiosk.health,
                                          metrics: kiosk.metrics, limits: kiosk.limits, heartbeats: kiosk.heartbeats)),
            ("", AuthRoutes.collection(credentials: access.credentials, throttle: access.throttle, logger: kiosk.logger)),
            ("/api", LiveRoutes.collection(status: kiosk.status, events: kiosk.events, manager: kiosk.manager, audio: settings.audio,
                                           preview: kiosk.preview, mirrors: kiosk.limits.mirrors, streams: kiosk.limits.events)),
            ("/api", ShotRoutes.collection(guests: kiosk.guests, posting: kiosk.posting, manager: kiosk.manager, status: kiosk.status,
                                           settings: settings)),
            ("/api", GalleryRoutes.collection(library: kiosk.library, guests: kiosk.guests, videos: kiosk.limits.videos, wifi: settings.wifi)),
            ("/api", MailRoutes.collection(mail: kiosk.mail, guests: kiosk.guests, library: kiosk.library, consent: settings.consent,
                                           logger: kiosk.logger, metrics: kiosk.metrics)),
            ("/api/admin", AdminRoutes.collection(overview: kiosk.overview, library: kiosk.library, reels: kiosk.reels,
                                                  videos: kiosk.limits.videos, logger: kiosk.logger, table: { table.withLock { $0 } })),
            ("/api/admin", PreflightRoutes.collection(kiosk.preflight)),
            ("", GuardedRoutes.fleet(kiosk.fleet)),
            ("/api/admin", SettingsRoutes.collection(event: kiosk.eventSettings, preview: kiosk.preview, logger: kiosk.logger)),
            ("/s", ShareRoutes.collection(posts: kiosk.library.shared, videos: kiosk.limits.videos, place: sharePlace(kiosk),
                                          logger: kiosk.logger, clock: kiosk.clock)),
            ("/g", HostGalleryRoutes.collection(galleries: HostGalleries(posts: kiosk.library.shared), videos: kiosk.limits.videos,
                                                archives: kiosk.limits.archives, language: { [language = settings.booth.language] _ in language },
                                                clock: kiosk.clock)),
            ("/api/admin/galleries", GalleryAdminRoutes.collection(library: kiosk.library, reels: kiosk.reels, language: settings.booth.language,
                                                                   logger: kiosk.logger, clock: kiosk.clock)),
        ]
        var routes: [KioskRoute] = []
        for (prefix, collection) in collections {
            router.addRoutes(collection.collection, atPath: RouterPath(prefix))
            routes += collection.routes.map { route in
                var route = route
                // As the router joins them: one slash between, none at the end; parameters as `:name`.
                let parts = (prefix + "/" + route.path).split(separator: "/")
                route.path = "/" + parts.joined(separator: "/")
                return route
            }
        }
        table.withLock { $0 = routes }
        // Last, so it sees only what no route took: the router's bare 404 becomes the API's JSON
        // error, and a route asked with the wrong method 405 with Allow.
        router.add(middleware: UnmatchedRoute(routes: routes))
        return (router, routes)
    }

    /// The share links on the booth: the phone that opens a post's link while its thank-you shows
    /// it takes the delete claim, a guest's delete is counted, a link that opens nothing is gone
    /// (the booth has every post it made), and the pages are in kiosk.language.
    static func sharePlace(_ kiosk: KioskServices) -> ShareRoutes.Place {
        let (guests, metrics, language) = (kiosk.guests, kiosk.metrics, kiosk.settings.booth.language)
        return ShareRoutes.Place(mayClaim: { guests.sharesLink(of: $0) }, deleted: { metrics.guestDeleted() }, unopened: .gone,
                                 language: { _ in language }, event: kiosk.settings.eventName)
    }

    struct ShootFields: Decodable {
        var seconds: Double?
        var countdown: Int?
        /// The shot under review, when its guest asked for a retake.
        var retake: String?
        /// The effect it is made into (one `kiosk.effects` offers); nil: the guest's last choice.
        var effect: String?
    }

    struct EffectFields: Decodable {
        /// One `kiosk.effects` offers; nil: back to the first.
        var effect: String?
    }

    struct PostFields: Decodable {
        /// The shot to post: the current one, as its guest reviewed it.
        var id: String?
        var caption: String?
    }

    struct DiscardFields: Decodable {
        var id: String?
    }

    struct ConsentFields: Decodable {
        var answer: String?
        var textSha256: String?
    }

    /// `GET /api/sound`: the sound's level for the page's meter (nulls when there is none).
    struct SoundLevel: Encodable {
        var peakDBFS: Double?
        var rmsDBFS: Double?

        // Written by hand so that no level is `null`, not a missing key.
        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(peakDBFS, forKey: .peakDBFS)
            try c.encode(rmsDBFS, forKey: .rmsDBFS)
        }

        enum CodingKeys: String, CodingKey { case peakDBFS, rmsDBFS }
    }

    struct Health: Encodable {
        var healthy: Bool
        var reasons: [String]?
    }

    struct StopAnswer: Encodable {
        var stopped: Bool
        var state: String
    }

    struct QueuedAnswer: Encodable {
        var id: String
        var status: String
        var bytes: Int64
    }

    struct GalleryPage: Encodable {
        var posts: [FeedEntry]
        var page: Int
        var hasMore: Bool
    }

}

/// What no route answered: a known path asked with another method is 405 with `Allow`, anything
/// else 404; both with the API's JSON error body, like every other failure. The caller is judged
/// first, as the route would: a wrong token is refused, and a path whose routes the caller may not
/// call answers 401 or 403, never which methods it takes (that would tell a caller without a token
/// which routes exist).
struct UnmatchedRoute: RouterMiddleware {
    typealias Context = KioskRequestContext
    let routes: [KioskRoute]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            if let wrong = context.wrongCredentials, let refusal = await KioskGuard.refusal(wrong, client: context.client) {
                return refusal
            }
            let path = request.uri.path
            let asked = path.split(separator: "/")
            let matching = routes.filter { route in
                let parts = route.path.split(separator: "/")
                return parts.count == asked.count && zip(parts, asked).allSatisfy { $0.hasPrefix(":") || $0 == $1 }
            }
            guard !matching.isEmpty else {
                return APIError(.recorder(.notFound), "there is no \(path) here: the page is /, the API is under /api/ (docs/kiosk.md, and GET /api/admin/routes for the operator).").response
            }
            // As the most open of its routes would answer this caller.
            let access = matching.map(\.access).min { $0.openness > $1.openness }!
            if let refusal = GuardedRoutes.refusal(access, context) { return refusal }
            var allowed = matching.compactMap { HTTPRequest.Method($0.method) }
            if allowed.contains(.get) { allowed.append(.head) }
            let names = allowed.map(\.rawValue).joined(separator: ", ")
            var response = APIError(.methodNotAllowed, "\(path) takes \(names), not \(request.method.rawValue).").response
            response.headers[.allow] = names
            return response
        }
    }
}

extension RouteAccess {
    /// How many callers it admits: public, then the booth's, then the operator's alone.
    var openness: Int {
        switch self {
        case .public: 2
        case .booth: 1
        case .operator: 0
        }
    }
}
