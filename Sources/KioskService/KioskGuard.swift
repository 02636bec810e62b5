import FoundationEssentials
import HTTPTypes
import Hummingbird
import NIOCore
import RecorderCore
import StorageUpload
import SystemSupport

/// Refuses a Host the kiosk does not answer to (421), checks the token (Bearer header or
/// `recorder_token` cookie) on `/api` and `/metrics`, and refuses state-changing requests from
/// another origin.
struct KioskGuard<Context: RequestContext>: RouterMiddleware {
    let settings: KioskSettings
    var token: String? { settings.token }

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let path = request.uri.path
        // Before anything else, on every route: a page on another name that resolves here (DNS
        // rebinding) gets nothing, not even a GET's data.
        if let authority = request.head.authority, !settings.answers(toHost: authority) {
            return APIError(.misdirectedRequest, "this kiosk does not answer to the host name in '\(authority)'. If that name is yours, add it to kiosk.hosts.",
                            exitStatus: .noPermission).response
        }
        if request.method == .post || request.method == .put || request.method == .delete || request.method == .patch {
            if let refusal = Self.crossOrigin(request) { return refusal.response }
        }
        if let token, path.hasPrefix("/api/") || path == "/metrics" {
            guard Self.presented(request).map({ Self.constantTimeEqual($0, token) }) == true else {
                var response = APIError(.unauthorized, "a valid API token is required: send Authorization: Bearer TOKEN (the page asks for it once).",
                                        exitStatus: .noPermission).response
                response.headers[.wwwAuthenticate] = "Bearer realm=\"recorder\""
                return response
            }
        }
        return try await next(request, context)
    }

    static func presented(_ request: Request) -> String? {
        if let header = request.headers[.authorization], header.hasPrefix("Bearer ") {
            return header.dropFirst(7).trimmed()
        }
        for cookie in request.headers[values: .cookie].flatMap({ $0.split(separator: ";") }) {
            let pair = cookie.trimmed()
            if pair.hasPrefix("recorder_token=") { return String(pair.dropFirst("recorder_token=".count)) }
        }
        return nil
    }

    /// A browser names the page that sent a request in Origin (and Sec-Fetch-Site); it must be ours.
    static func crossOrigin(_ request: Request) -> APIError? {
        if request.headers[HTTPField.Name("Sec-Fetch-Site")!] == "cross-site" {
            return APIError(.forbidden, "requests from other sites are refused.", exitStatus: .noPermission)
        }
        guard let origin = request.headers[.origin] else { return nil }
        let host = request.head.authority ?? ""
        let originHost = origin.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first.map(String.init) ?? ""
        if origin == "null" || originHost.lowercased() != host.lowercased() {
            return APIError(.forbidden, "requests from another origin (\(origin)) are refused; use the kiosk's own page.", exitStatus: .noPermission)
        }
        return nil
    }

    static func constantTimeEqual(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        var difference: UInt8 = 0
        for i in x.indices { difference |= x[i] ^ y[i] }
        return difference == 0
    }
}
