package import PreflightValues

/// Whether a guest's phone can open the share links the booth gives: each kind of link points at
/// an address, and one on this machine's loopback (or none at all) opens nothing on a phone.
package enum ShareLinkCheck {
    /// `template`: `share.base_url`, nil when empty; `boothWifi`: the booth brings its own Wi-Fi;
    /// `presignedEndpoint`: the S3 store's endpoint when it presigns links; `pageBase`: where the
    /// kiosk's own share page is (its first address a phone could use).
    package static func look(template: String?, boothWifi: Bool, presignedEndpoint: String?, pageBase: String?) -> PreflightFinding {
        if let template {
            if boothWifi && !template.contains("{token}") { return .shareNotOnBoothWifi(url: template, setting: "share.base_url") }
            let host = host(of: template)
            if isUnreachable(host) { return .shareUnreachable(url: template, host: host, setting: "share.base_url") }
            return .shareTemplate(url: template, host: host)
        }
        if boothWifi { return .shareNotOnBoothWifi(url: nil, setting: "share.base_url") }
        if let endpoint = presignedEndpoint {
            let host = host(of: endpoint)
            if isUnreachable(host) { return .shareUnreachable(url: endpoint, host: host, setting: "s3.endpoint") }
            return .sharePresigned(endpoint: endpoint)
        }
        let page = pageBase ?? ""
        let host = host(of: page)
        // (the kiosk's page on loopback: a proxy on the guests' network, named by share.base_url, is the fix)
        if isUnreachable(host) { return .shareUnreachable(url: page.isEmpty ? "" : page + "/s/{token}", host: host, setting: "kiosk.listen") }
        return .sharePage(address: page)
    }

    /// The host of `scheme://[user@]host[:port]/...`, without brackets; empty when there is none.
    static func host(of url: String) -> String {
        guard let scheme = url.firstRange(of: "://") else { return "" }
        var authority = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            return String(authority[authority.index(after: authority.startIndex)..<close]).lowercased()
        }
        return String(authority.prefix { $0 != ":" }).lowercased()
    }

    /// No address, this machine's loopback, or the wildcard no browser can open.
    static func isUnreachable(_ host: String) -> Bool {
        var name = host
        if name.hasSuffix(".") { name.removeLast() }
        return name.isEmpty || name == "localhost" || name.hasSuffix(".localhost") || name.hasPrefix("127.") || name == "::1"
            || name == "0.0.0.0" || name == "::" || name == "0:0:0:0:0:0:0:1"
    }
}
