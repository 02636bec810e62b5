package import Hummingbird
import HTTPTypes
import Failures

/// A browser names the page that sent a request in Origin (and Sec-Fetch-Site); a request that
/// changes something must come from a page of the same site, so that a web page elsewhere cannot
/// drive the kiosk or delete a guest's post from a phone that visits it.
package enum CrossOrigin {
    /// Why `request` (not a GET) is refused, or nil. `withSessionCookie`: it came with the kiosk's
    /// session cookie, which a browser attaches whoever's page asks: then only Origin tells, and it
    /// must be there. An Origin must be ours: the scheme the page came over (`overTLS`: https
    /// through a proxy that says so), the Host the request names, and nothing else.
    package static func refusal(_ request: Request, withSessionCookie: Bool, overTLS: Bool) -> APIError? {
        if request.headers[HTTPField.Name("Sec-Fetch-Site")!] == "cross-site" {
            return APIError(.recorder(.denied), "requests from other sites are refused.")
        }
        guard let origin = request.headers[.origin] else {
            if withSessionCookie {
                return APIError(.recorder(.denied), "a request with the kiosk's session cookie must say where it comes from (Origin); use the kiosk's own page, or send Authorization: Bearer TOKEN instead of the cookie.")
            }
            return nil
        }
        let ours = (overTLS ? "https://" : "http://") + (request.head.authority ?? "")
        if origin.lowercased() != ours.lowercased() {
            return APIError(.recorder(.denied), "requests from another origin (\(origin)) are refused; use the kiosk's own page.")
        }
        return nil
    }
}
