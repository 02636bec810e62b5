import FoundationEssentials
import StorageUpload

/// Where a post's share link (`shareURL`) points, for a guest's phone: `share.base_url` with `{id}`
/// and `{key}` filled in (a public bucket, a CDN, a reverse proxy), else for an S3 store a presigned
/// GET of the video that lives `share.expires_hours` (at most 7 days: SigV4's limit), else none.
package struct ShareLinks: Sendable {
    /// A template such as `https://cdn.example.com/{key}`; nil for none.
    package var baseURL: String?
    package var expiresSeconds: Int

    package init(baseURL: String? = nil, expiresSeconds: Int = 168 * 3600) {
        self.baseURL = baseURL
        self.expiresSeconds = expiresSeconds
    }

    package init(_ configuration: RecorderConfiguration) throws(RecorderError) {
        let template = configuration.text("share.base_url").flatMap { $0.isEmpty ? nil : $0 }
        if let template {
            guard template.hasPrefix("https://") || template.hasPrefix("http://"), template.contains("{id}") || template.contains("{key}") else {
                throw RecorderError("share.base_url = \(template) (from \(configuration.origin("share.base_url"))) must be an http(s) address with {id} or {key} in it, e.g. https://cdn.example.com/{key}.",
                                    exitStatus: .config)
            }
        }
        let hours = try configuration.number("share.expires_hours")
        self.init(baseURL: template, expiresSeconds: Int((hours * 3600).rounded()))
    }

    /// The link to post `id`'s video (`key`, without the store's prefix) in `store`, and when it
    /// stops working (RFC 3339; nil: it does not expire); nil when the store can give none.
    package func link(id: String, key: String, store: any StorageBackend, at date: Date = Date()) -> (url: String, expiresAt: String?)? {
        if let baseURL {
            return (baseURL.replacing("{id}", with: id).replacing("{key}", with: store.destination.prefix + key), nil)
        }
        let seconds = min(expiresSeconds, S3Presigner.maximumExpiry)
        guard let url = try? store.presignedURL(forKey: key, expiresSeconds: seconds, at: date) else { return nil }
        return (url, RFC3339.string(date.addingTimeInterval(Double(seconds))))
    }
}
