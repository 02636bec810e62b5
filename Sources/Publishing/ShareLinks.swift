package import FoundationEssentials
package import StorageUpload
package import Settings
import StoreValues
package import Failures
import SystemSupport

/// Where a post's share link (`shareURL`) points, for a guest's phone: `share.base_url` with `{id}`,
/// `{key}` and `{token}` filled in (a public bucket, a CDN, a reverse proxy), else for an S3 store a
/// presigned GET of the video that lives `share.expires_hours` (at most 7 days: SigV4's limit), else
/// the kiosk's own share page `/s/<token>` when a kiosk uploads it, else none.
package struct ShareLinks: Sendable {
    /// A template such as `https://cdn.example.com/{key}`; nil for none.
    package var baseURL: String?
    package var expiresSeconds: Int
    /// The kiosk's address as a phone reaches it (`http://192.168.1.20:8080`), for its share page
    /// `/s/<token>`; nil where no kiosk serves one (the CLI).
    package var pageBase: String?
    /// `retention.days`: no link outlives its post.
    package var retention: Retention?

    package init(baseURL: String? = nil, expiresSeconds: Int = 168 * 3600, pageBase: String? = nil, retention: Retention? = nil) {
        self.baseURL = baseURL
        self.expiresSeconds = expiresSeconds
        self.retention = retention
        self.pageBase = pageBase.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
    }

    package init(_ configuration: RecorderConfiguration, pageBase: String? = nil) throws(RecorderError) {
        let template = configuration.text("share.base_url").flatMap { $0.isEmpty ? nil : $0 }
        if let template {
            guard template.hasPrefix("https://") || template.hasPrefix("http://"),
                  ["{id}", "{key}", "{token}"].contains(where: { template.contains($0) }) else {
                throw .configuration(configuration.origin("share.base_url"), .badShareTemplate(template))
            }
        }
        let hours = try configuration.number("share.expires_hours")
        self.init(baseURL: template, expiresSeconds: Int((hours * 3600).rounded()), pageBase: pageBase, retention: try Retention(configuration))
    }

    /// Whether `url` (a share link read from a store, which anyone with write access to it could
    /// have put there) points where this configuration's links point: the template's fixed start,
    /// this kiosk's share page, or the store's own address (a presigned link). Only such a link is
    /// shown to a guest; another is made anew.
    package func isOurs(_ url: String, store: any StorageBackend) -> Bool {
        var starts: [String] = []
        if let baseURL { starts.append(String(baseURL[..<(baseURL.firstIndex(of: "{") ?? baseURL.endIndex)])) }
        if let pageBase { starts.append(pageBase + "/s/") }
        let storeBase = store.url(forKey: "")
        if storeBase.hasPrefix("https://") || storeBase.hasPrefix("http://") { starts.append(storeBase) }
        // The whole origin must match too, not only a name that begins the same (cdn.example.com.evil.org).
        return starts.contains { start in url.hasPrefix(start) && Self.origin(start) != nil && Self.origin(url) == Self.origin(start) }
    }

    /// Whether `store` gives links of its own (presigned GETs: S3 does, a local directory does not).
    package static func presigns(_ store: any StorageBackend) -> Bool {
        // (at any time: only whether it gives a link)
        (try? store.presignedURL(forKey: "k", expiresSeconds: 60, at: Date(timeIntervalSince1970: 0))) != nil
    }

    /// Where a host's gallery opens (`/g/<token>` under it): the origin of `share.base_url`, the
    /// public name the share servers answer for; else the kiosk's own page address; nil for neither.
    package var galleryOrigin: String? {
        baseURL.flatMap(Self.origin) ?? pageBase.flatMap(Self.origin)
    }

    /// `scheme://host[:port]` of an address, lowercased; nil when it has none.
    static func origin(_ url: String) -> String? {
        guard let scheme = url.firstRange(of: "://") else { return nil }
        let rest = url[scheme.upperBound...]
        let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        guard end > rest.startIndex else { return nil }
        return url[..<end].lowercased()
    }

    /// The link to post `id`'s video (`key`, without the store's prefix) in `store`, and when it
    /// stops working (RFC 3339; nil: it does not expire); nil when there can be none. `token` is the
    /// post's share token (`PostMetadata.shareToken`), for a link to a share page.
    package func link(id: String, key: String, token: String? = nil, store: any StorageBackend, at date: Date = Date(),
                      createdAt: String? = nil) -> (url: String, expiresAt: String?)? {
        // A link lives share.expires_hours, and never past its post's end under retention.days.
        var expiresSeconds = self.expiresSeconds
        if let retention, let end = retention.expiresAt(createdAt: createdAt ?? RFC3339.string(date)) {
            let left = Int(end.timeIntervalSince(date).rounded(.down))
            guard left > 0 else { return nil }
            expiresSeconds = min(expiresSeconds, left)
        }
        if let baseURL {
            if baseURL.contains("{token}") && token == nil { return nil }
            let url = baseURL.replacing("{id}", with: id).replacing("{key}", with: store.destination.prefix + key)
                .replacing("{token}", with: token ?? "")
            // A share page (a template with the token) honours share.expires_hours; a plain address
            // does not expire (but is gone with its post).
            return (url, baseURL.contains("{token}") ? RFC3339.string(date.addingTimeInterval(Double(expiresSeconds))) : nil)
        }
        let seconds = min(expiresSeconds, S3Presigner.maximumExpiry)
        if let url = try? store.presignedURL(forKey: key, expiresSeconds: seconds, at: date) {
            return (url, RFC3339.string(date.addingTimeInterval(Double(seconds))))
        }
        guard let pageBase, let token else { return nil }
        return (pageBase + "/s/" + token, RFC3339.string(date.addingTimeInterval(Double(expiresSeconds))))
    }
}
