import PreflightValues

extension PreflightWording {
    /// The operator's and the booth's tokens.
    static func tokens(_ operatorToken: TokenState, _ boothToken: TokenState, listen: String, beyondLoopback: Bool) -> (String, String?) {
        let what = "the operator's \(tokenText(operatorToken)); the booth's \(tokenText(boothToken))"
        for (state, file) in [(operatorToken, "/etc/recorder/kiosk-token"), (boothToken, "/etc/recorder/kiosk-booth-token")] {
            switch state {
            case .weak, .notPrintable: return (what, "make one: head -c 24 /dev/urandom | base64 > \(file)")
            case .readableByOthers(let path, _): return (what, "chmod 600 \(path)")
            case .unreadable(let path): return (what, "create \(path) (head -c 24 /dev/urandom | base64) or let the kiosk's user read it")
            case .sameAsOperator: return (what, "give the booth its own: head -c 24 /dev/urandom | base64 > \(file)")
            case .missing, .strong: continue
            }
        }
        if operatorToken == .missing {
            if beyondLoopback { return (what, "kiosk.listen = \(listen) reaches other machines: set kiosk.token_file (the package makes /etc/recorder/kiosk-token)") }
            if boothToken != .missing { return (what, "with a booth's token the operator needs one too: set kiosk.token_file") }
            return (what, "anyone on this machine can drive the kiosk: set kiosk.token_file (the package makes /etc/recorder/kiosk-token)")
        }
        if boothToken == .missing { return (what, "the booth's screen logs in with the operator's token, which can do everything: set kiosk.booth_token_file") }
        return (what, nil)
    }

    static func tokenText(_ state: TokenState) -> String {
        switch state {
        case .missing: "is not set"
        case .strong(let bits, let origin): "is strong (about \(bits) bits, from \(origin))"
        case .weak(let bits, let origin): "is too easy to guess (about \(bits) bits, at least 128 needed; from \(origin))"
        case .notPrintable(let origin): "holds spaces or characters beyond printable ASCII (from \(origin))"
        case .readableByOthers(let path, let mode): "is in \(path), which other users can read (mode \(mode))"
        case .unreadable(let path): "is in \(path), which cannot be read"
        case .sameAsOperator: "is the same as the operator's"
        }
    }

    /// Share links, TLS certificates and the booth's Wi-Fi.
    static func network(_ finding: PreflightFinding) -> (String, String?) {
        switch finding {
        case .shareTemplate(let url, let host):
            return ("share.base_url = \(url): phones open \(host)", nil)
        case .shareUnreachable(let url, let host, let setting):
            let address = host.isEmpty ? "no address at all" : "\(host), this machine's own loopback"
            let what = switch setting {
            case "kiosk.listen": "share links point at the kiosk's own page, \(url), on \(address) (kiosk.listen): a guest's phone cannot open them"
            case "s3.endpoint": "share links are presigned for s3.endpoint = \(url), on \(address): a guest's phone cannot open them"
            default: "\(setting) = \(url) points at \(address): a guest's phone cannot open it"
            }
            return (what, "set share.base_url to an address phones on the guests' network reach, e.g. http://BOOTH-ADDRESS/s/{token} behind the shipped nginx (docs/sharing.md)")
        case .shareNotOnBoothWifi(let url, _):
            return ("on the booth's own Wi-Fi every name is the booth, and share.base_url \(url.map { "= \($0)" } ?? "is not set"): a phone there cannot open it",
                    "share.base_url = http://10.42.0.1/s/{token}, or https://NAME/s/{token} for links that also open at home (docs/venue.md)")
        case .sharePresigned(let endpoint):
            return ("presigned links to the store at \(endpoint)", nil)
        case .sharePage(let address):
            return ("the kiosk's own share page at \(address)/s/…", nil)
        case .noCertificates(let directory):
            return ("no certificate in \(directory): share links go over plain http", nil)
        case .certificates(let states):
            let what = states.map(certificateText).joined(separator: "; ")
            if states.contains(where: { if case .notYetValid = $0 { true } else { false } }) {
                return (what, "check this machine's clock, or the certificate's dates")
            }
            if states.contains(where: { $0.status == .error || $0.status == .warning }) {
                return (what, "renew it and reload nginx (systemctl reload nginx): phones refuse an expired certificate")
            }
            return (what, nil)
        case .wifiNotConfigured(let setting):
            return ("no booth Wi-Fi (\(setting) is empty)", nil)
        case .wifiMatches(let file, let name, let security):
            return ("kiosk.wifi_* and \(file) agree: \(name), \(security)", nil)
        case .wifiDisagrees(let file, let fields):
            return ("kiosk.wifi_* and \(file) disagree on \(fields.map(fieldText).joined(separator: ", ")): a phone that reads the Wi-Fi code does not join",
                    "make them the same (sudoedit \(file), or kiosk.wifi_ssid, kiosk.wifi_security, kiosk.wifi_password), then restart recorder-wifi@IFACE and recorder")
        case .hostapdUnreadable(let file):
            return ("\(file) is root's alone: not compared with kiosk.wifi_*", "run sudo recorder doctor on the booth to compare them")
        case .hostapdMissing(let file):
            return ("kiosk.wifi_ssid is set but \(file) does not exist: there is no access point", "set it up (docs/venue.md, Setting it up)")
        default:
            return ("", nil)
        }
    }

    static func certificateText(_ state: CertificateState) -> String {
        func name(_ path: String, _ subject: String) -> String {
            let file = path.split(separator: "/").last.map(String.init) ?? path
            return subject.isEmpty ? file : "\(file) (\(subject))"
        }
        switch state {
        case .valid(let path, let subject, let notAfter, let days): return "\(name(path, subject)) is valid until \(notAfter), \(days) days"
        case .expiring(let path, let subject, let notAfter, let days): return "\(name(path, subject)) expires in \(days) day(s), \(notAfter)"
        case .expired(let path, let subject, let notAfter, let days): return "\(name(path, subject)) EXPIRED \(days) day(s) ago, \(notAfter)"
        case .notYetValid(let path, let subject, let notBefore): return "\(name(path, subject)) is not valid before \(notBefore)"
        case .unreadable(let path): return "\(path) holds no certificate that can be read"
        }
    }

    static func fieldText(_ field: WifiField) -> String {
        switch field {
        case .name(let configured, let file): "the name (\"\(configured)\" here, \"\(file)\" there)"
        case .security(let configured, let file): "the security (\(configured) here, \(file) there)"
        case .password: "the password"
        }
    }
}
