package import Hummingbird
import HTTPTypes
import KioskWords
import SystemSupport

/// The language a share server's page is in for a request: the one of the pages' languages
/// (`GuestStrings.languages`) the browser asks for first (`Accept-Language`, by its weights), else
/// `fallback` (`serve.language`). The booth's pages are in `kiosk.language` whatever the phone asks:
/// the guest reads them there as the booth showed them.
package enum PageLanguage {
    package static func chosen(_ request: Request, fallback: String) -> String {
        chosen(acceptLanguage: request.headers[values: .acceptLanguage].joined(separator: ","), fallback: fallback)
    }

    package static func chosen(acceptLanguage: String, fallback: String) -> String {
        var best: (language: String, weight: Double)?
        for (position, item) in acceptLanguage.split(separator: ",").prefix(32).enumerated() {
            let parts = item.split(separator: ";")
            guard let tag = parts.first.map({ String($0).trimmed().lowercased() }), !tag.isEmpty else { continue }
            let primary = String(tag.split(separator: "-").first ?? "")
            guard GuestStrings.languages.contains(primary) else { continue }
            var weight = 1.0
            for parameter in parts.dropFirst() {
                let pair = String(parameter).trimmed()
                if pair.hasPrefix("q="), let value = Double(pair.dropFirst(2)) { weight = value }
            }
            // (equal weights: the earlier one, as the browser lists its preference)
            let ranked = weight - Double(position) * 1e-6
            if weight > 0, ranked > (best?.weight ?? 0) { best = (primary, ranked) }
        }
        return best?.language ?? (GuestStrings.languages.contains(fallback) ? fallback : "en")
    }
}
