import Glibc

/// Which names and addresses the kiosk answers to, and where a person opens its page.
extension KioskSettings {
    static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }

    /// Whether a request's Host names this kiosk: an IP literal (a rebinding attack needs a name
    /// it controls), localhost, the listen address, this machine's name (also with .local), or one
    /// of `kiosk.hosts`. The port is not checked: a name is what rebinding forges.
    package func answers(toHost authority: String) -> Bool {
        var name = Substring(authority.lowercased())
        if name.hasPrefix("[") {
            // An IPv6 literal, whole: "[" address "]", then a port or nothing ("[::1].evil.example"
            // is a name, which a rebinding page controls).
            guard let close = name.firstIndex(of: "]") else { return false }
            let rest = name[name.index(after: close)...]
            return Self.isAddress(String(name[name.index(after: name.startIndex)..<close]), family: AF_INET6)
                && (rest.isEmpty || Self.isPort(rest))
        }
        if let colon = name.lastIndex(of: ":") {
            guard Self.isPort(name[colon...]) else { return false }
            name = name[..<colon]
        }
        if name.hasSuffix(".") { name = name.dropLast() }
        let host = String(name)
        if host.isEmpty { return false }
        if Self.isAddress(host, family: AF_INET) { return true }
        // The machine's own names only when the kiosk listens beyond loopback: on loopback nobody
        // else needs them, and a LAN that spoofs mDNS could point such a name at anything.
        return host == "localhost" || host == self.host.lowercased() || hosts.contains(host)
            || (!Self.isLoopback(self.host) && Self.machineNames.contains(host))
    }

    /// Whether `text` is an address of `family` (AF_INET: four decimal numbers; AF_INET6) as
    /// inet_pton reads it: a zone (`%eth0`), a prefix or anything after the address is not.
    static func isAddress(_ text: String, family: Int32) -> Bool {
        var bytes = (UInt64(0), UInt64(0))
        return withUnsafeMutableBytes(of: &bytes) { inet_pton(family, text, $0.baseAddress) == 1 }
    }

    /// ":" and a port number, as a Host header ends.
    static func isPort(_ text: Substring) -> Bool {
        text.first == ":" && (1...6).contains(text.count) && text.dropFirst().allSatisfy { ("0"..."9").contains($0) }
    }

    /// This machine's host name, short and with `.local` (mDNS), lowercased.
    static let machineNames: Set<String> = {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return [] }
        let name = String(cString: buffer).lowercased()
        let short = name.split(separator: ".").first.map(String.init) ?? name
        return [name, short, short + ".local"]
    }()

    /// Where a person opens the page: the listen address, or for a wildcard (0.0.0.0, ::) this
    /// machine's own addresses (never "0.0.0.0", which no browser can open).
    package var pageAddresses: [String] {
        func url(_ host: String) -> String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)/" }
        guard host == "0.0.0.0" || host == "::" else { return [url(host)] }
        var addresses: [String] = []
        var list: UnsafeMutablePointer<ifaddrs>?
        if getifaddrs(&list) == 0 {
            var next = list
            while let entry = next?.pointee {
                next = entry.ifa_next
                guard let address = entry.ifa_addr, address.pointee.sa_family == sa_family_t(AF_INET) else { continue }
                var text = [CChar](repeating: 0, count: Int(NI_MAXHOST))
                guard getnameinfo(address, socklen_t(MemoryLayout<sockaddr_in>.size), &text, socklen_t(text.count), nil, 0, NI_NUMERICHOST) == 0 else { continue }
                let name = String(cString: text)
                if !name.isEmpty && !name.hasPrefix("127.") { addresses.append(url(name)) }
            }
            freeifaddrs(list)
        }
        return addresses + [url("127.0.0.1")]
    }

    /// The address to reach the server from this machine (a wildcard bind answers on loopback).
    package var probeHost: String {
        switch host {
        case "0.0.0.0", "localhost": "127.0.0.1"
        case "::": "::1"
        default: host
        }
    }
}
