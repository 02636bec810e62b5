package import StorageUpload

extension ShareLinks {
    /// A link as these settings make them for `store` (a made-up post's, as a guest's phone would
    /// get it), or nil when there would be none.
    package func example(store: any StorageBackend) -> String? {
        link(id: "EXAMPLEID0", key: PostMetadata.videoKey(id: "EXAMPLEID0"), token: String(repeating: "x", count: ShareToken.length), store: store)?.url
    }

    /// Whether a guest's phone can open `url`: false when the link names the machine that opens
    /// it, which on a phone is the phone - a loopback address however it is spelled (127.0.0.0/8:
    /// `127.0.0.1`, `127.1`, `0x7f.1`, `2130706433`; `::1`; `::ffff:127.0.0.1`), the unspecified
    /// address (`0.0.0.0`, `::`), `localhost` or a name under it - and for anything that is not an
    /// http(s) address with a host. A QR code of such a link opens nothing: the booth shows none.
    package static func opensOnPhones(_ url: String) -> Bool {
        guard let host = host(of: url) else { return false }
        if host == "localhost" || host.hasSuffix(".localhost") { return false }
        if let address = ipv4(host) { return !Self.isThisMachine(ipv4: address) }
        if let bytes = ipv6(host) {
            if bytes.dropLast().allSatisfy({ $0 == 0 }) { return bytes[15] > 1 }  // :: and ::1 (::2 and on are IPv4-compatible others)
            // An IPv4-mapped address (::ffff:a.b.c.d) is that IPv4 address.
            if bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
                return !Self.isThisMachine(ipv4: bytes.suffix(4).reduce(0) { $0 << 8 | UInt32($1) })
            }
            return true
        }
        return true
    }

    /// 127.0.0.0/8 and 0.0.0.0.
    private static func isThisMachine(ipv4 address: UInt32) -> Bool {
        address >> 24 == 127 || address == 0
    }

    /// The host of an http(s) address, lowercased, without a user, port, brackets or final dot;
    /// nil when there is none.
    static func host(of url: String) -> String? {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), let scheme = lowered.firstRange(of: "://") else { return nil }
        var authority = lowered[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" && $0 != "\\" }
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host: Substring
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[authority.index(after: authority.startIndex)..<close]
        } else {
            host = authority.prefix { $0 != ":" }
            while host.hasSuffix(".") { host = host.dropLast() }
        }
        return host.isEmpty ? nil : String(host)
    }

    /// `host` as an IPv4 address the way a browser reads one (the WHATWG URL standard: one to four
    /// parts, each decimal, octal with a leading 0 or hex with 0x, the last filling what is left),
    /// or nil for a name.
    static func ipv4(_ host: String) -> UInt32? {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...4).contains(parts.count) else { return nil }
        var numbers: [UInt64] = []
        for part in parts {
            var digits = part, radix = 10
            if digits.hasPrefix("0x") {
                (digits, radix) = (digits.dropFirst(2), 16)
            } else if digits.count > 1 && digits.hasPrefix("0") {
                (digits, radix) = (digits.dropFirst(), 8)
            }
            if digits.isEmpty {
                // "0x" alone is 0; an empty part is no address.
                guard radix == 16 else { return nil }
                numbers.append(0)
                continue
            }
            guard digits.count <= 32, let number = UInt64(digits, radix: radix) else { return nil }
            numbers.append(number)
        }
        let last = numbers.removeLast()
        guard numbers.allSatisfy({ $0 <= 255 }), last < UInt64(1) << (8 * (4 - numbers.count)) else { return nil }
        var address = last
        for (index, number) in numbers.enumerated() { address |= number << (8 * (3 - index)) }
        return UInt32(address)
    }

    /// `host` as the 16 bytes of an IPv6 address (with `::` and a dotted IPv4 end), or nil.
    static func ipv6(_ host: String) -> [UInt8]? {
        guard host.contains(":") else { return nil }
        let halves = host.split(separator: "::", omittingEmptySubsequences: false)
        guard halves.count <= 2 else { return nil }
        func groups(_ text: Substring) -> [UInt16]? {
            if text.isEmpty { return [] }
            var out: [UInt16] = []
            let pieces = text.split(separator: ":", omittingEmptySubsequences: false)
            for (index, piece) in pieces.enumerated() {
                if index == pieces.count - 1, piece.contains(".") {
                    // A dotted IPv4 end: four decimal parts only.
                    let octets = piece.split(separator: ".", omittingEmptySubsequences: false).map { UInt8($0) }
                    guard octets.count == 4, octets.allSatisfy({ $0 != nil }) else { return nil }
                    out.append(UInt16(octets[0]!) << 8 | UInt16(octets[1]!))
                    out.append(UInt16(octets[2]!) << 8 | UInt16(octets[3]!))
                } else {
                    guard (1...4).contains(piece.count), let group = UInt16(piece, radix: 16) else { return nil }
                    out.append(group)
                }
            }
            return out
        }
        guard let head = groups(halves[0]), let tail = halves.count == 2 ? groups(halves[1]) : [] else { return nil }
        let missing = 8 - head.count - tail.count
        guard halves.count == 2 ? missing >= 1 : missing == 0 else { return nil }
        let all = head + Array(repeating: 0, count: missing) + tail
        return all.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xff)] }
    }
}
