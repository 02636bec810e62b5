package import Hummingbird
import HTTPTypes
import SystemSupport

/// The cookies a request carries (every `Cookie` header), read by name: the kiosk's session and a
/// share link's delete claim.
package enum RequestCookies {
    /// The value of cookie `name` (the last one given), or nil.
    package static func value(named name: String, in request: Request) -> String? {
        var found: String?
        for header in request.headers[values: .cookie] {
            for pair in header.split(separator: ";") {
                let pair = pair.drop(while: { $0 == " " })
                if pair.hasPrefix(name + "=") { found = String(pair.dropFirst(name.count + 1)).trimmed() }
            }
        }
        return found
    }
}
