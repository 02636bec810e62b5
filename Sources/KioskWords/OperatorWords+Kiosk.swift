import Settings
package import Failures

extension OperatorWords {
    static func kiosk(_ failure: KioskProblem) -> String {
        switch failure {
        case .hookNotExecutable(let path, let origin):
            "kiosk.on_state = \(path) (from \(origin)) is not an executable file given by its full path. Give the full path of a script it may run (chmod +x), or leave kiosk.on_state out."
        case .triggerNotAPath(let value, let origin):
            "kiosk.trigger = \(value) (from \(origin)) must be an input device's full path (ls /dev/input/by-id/ lists them: take the one ending in -event-kbd), auto, or empty for none."
        case .triggerWithoutWords(let origin):
            "kiosk.trigger = auto needs words to look for in kiosk.trigger_match (from \(origin)), e.g. button|switch|pedal."
        case .sameTokens:
            "the booth's token and the operator's token are the same: the booth's screen would be able to do everything the operator can. Give the booth its own (head -c 24 /dev/urandom | base64 > the kiosk.booth_token_file)."
        case .boothTokenWithoutOperatorToken:
            "a booth token is set but no operator token: nobody could reach the operator page or moderate. Set kiosk.token_file too (systemd: LoadCredential=kiosk-token:FILE)."
        case .exposedWithoutToken(let listen):
            "kiosk.listen = \(listen) is reachable from other machines, and no API token is set. Set kiosk.token_file (systemd: LoadCredential=kiosk-token:FILE), or listen on 127.0.0.1."
        case .tokenFileShared(let role, let path, let mode):
            "the \(role)'s token file \(path) is readable by other users (mode \(String(mode, radix: 8))). Run: chmod 600 \(path)"
        case .tokenFileUnreadable(let role, let path):
            "cannot read the \(role)'s token file \(path). Create it (head -c 24 /dev/urandom | base64 > \(path); chmod 600 \(path)) or fix its permissions."
        case .weakToken(let role, let origin, let weakness):
            "the \(role)'s token (from \(origin)) \(self.weakness(weakness))"
        case .proxySocketNotAbsolute(let path, let origin):
            "kiosk.proxy_socket = \(path) (from \(origin)) must be the full path of the socket to make, e.g. /run/recorder/proxy.sock, or off."
        case .proxySocketTooLong(let path, let origin, let bytes):
            "kiosk.proxy_socket = \(path) (from \(origin)) is \(bytes) bytes long; a Unix socket's path is at most 107. Choose a shorter one, e.g. /run/recorder/proxy.sock."
        case .guestTextNotAbsolute(let key, let value, let origin):
            "\(key) = \(value) (from \(origin)) must be the full path of a text file holding \(guestText(key)), e.g. /etc/recorder/\(key.dropFirst(6)).txt, or \(off(key))."
        case .guestTextUnreadable(let key, let path, let origin, let exists):
            "\(key) = \(path) (from \(origin)) \(exists ? "is not readable by the kiosk's user" : "does not exist"). Create it (UTF-8 text: \(guestText(key))), make it readable by the kiosk, or \(off(key))."
        case .guestTextTooLarge(let key, let path, let origin, let bytes):
            "\(key) = \(path) (from \(origin)) is \(bytes) bytes: \(guestText(key)) is read on a screen, a few kilobytes at most. Is it the right file?"
        case .guestTextRefused(let key, let path, let origin, let error):
            refused(key: key, path: path, origin: origin, error)
        case .wifi(let problem, let name, let origin):
            wifi(problem, name: name, origin: origin)
        case .wifiNeedsSharePage(let name, let base, let origin):
            "kiosk.wifi_ssid = \(name): on the booth's Wi-Fi every name is the booth, and "
                + (base.isEmpty ? "share.base_url is not set, so a guest's link would point at the store or at this kiosk's own address"
                   : "share.base_url = \(base) (from \(origin)) points at the video itself")
                + ", which a phone there cannot open. Point it at the share page the booth serves on its Wi-Fi: share.base_url = http://10.42.0.1/s/{token}, or https://NAME/s/{token} for a link that also opens at home (docs/venue.md)."
        case .mailSettings(let problem, let origins):
            MailWording.settings(problem, origin: { origins[$0] ?? "the default" })
        case .proxySocketFailed(let path, let reason):
            "kiosk.proxy_socket = \(path): the kiosk cannot listen there (\(reason)). Its directory must exist and be writable by the kiosk's user (systemd: RuntimeDirectory=recorder makes /run/recorder), or set kiosk.proxy_socket = off."
        case .addressInUse(let address, let port):
            "\(address) is already in use by another program (`ss -ltnp 'sport = :\(port)'` shows which). Stop it, or set kiosk.listen to another port."
        case .notAnAddressHere(let host):
            "\(host) is not an address of this machine. Set kiosk.listen to one of its addresses, 127.0.0.1 or 0.0.0.0."
        case .privilegedPort(let host, let port):
            "port \(port) needs privileges this user lacks (ports below 1024). Use a port from 1024 up, e.g. kiosk.listen = \(host):8080."
        case .serverStopped(let reason, let address):
            "the kiosk stopped: \(reason) (listening on \(address))."
        case .restartFailed(let code):
            "the kiosk stopped to restart with the operator page's settings and could not start again (\(errno(code))). Start it again (under systemd, Restart= does)."
        case .hidden(let id):
            "post \(id) is hidden by the operator."
        case .noPoster(let id):
            "post \(id) has no poster."
        case .noTokenFor(let role):
            "this kiosk has no \(role) token to begin a session with."
        case .noTokens:
            "this kiosk has no tokens: there are no sessions."
        }
    }

    /// What a guest text file holds, by its setting.
    static func guestText(_ key: String) -> String {
        key == "kiosk.consent" ? "what a guest agrees to before recording" : "questions for the guests, one a line"
    }

    /// How the setting is turned off.
    static func off(_ key: String) -> String {
        key == "kiosk.consent" ? "set \(key) = off" : "leave \(key) out"
    }

    /// A guest text file whose text cannot be used: a prompts file's problem names the setting and
    /// the line, a consent text's the setting.
    static func refused(key: String, path: String, origin: String, _ error: RecorderError) -> String {
        let setting = "\(key) = \(path) (from \(origin))"
        if case .text(var problem) = error, case .prompts = problem.subject {
            problem.subject = .prompts(origin: setting)
            return userText(problem)
        }
        return "\(setting): \(message(error))"
    }

    static func wifi(_ problem: WifiNetwork.Problem, name: String, origin: String) -> String {
        let named = "kiosk.wifi_ssid = \(name) (from \(origin))"
        return switch problem {
        case .nameMissing:
            "kiosk.wifi_password or kiosk.wifi_security is set (from \(origin)) but kiosk.wifi_ssid is empty: set kiosk.wifi_ssid to the name in the booth's hostapd.conf (ssid=), or leave all three out."
        case .nameTooLong(let bytes):
            "\(named) is \(bytes) bytes: a Wi-Fi network's name is at most 32. Choose a shorter one, here and in the booth's hostapd.conf (ssid=)."
        case .nameControlCharacter:
            "\(named) holds a control character (a line break or a tab), which no phone shows. Write the name on one line, as in the booth's hostapd.conf (ssid=)."
        case .passwordMissing:
            "\(named) is a WPA2 network (kiosk.wifi_security = wpa2, the default) but kiosk.wifi_password is empty: set it to the booth's hostapd.conf's wpa_passphrase=, or set kiosk.wifi_security = open for a network without one (hostapd-open.conf)."
        case .passwordLength(let count):
            "kiosk.wifi_password (from \(origin)) is \(count) characters: WPA2 takes 8 to 63. Choose one of that length, here and in the booth's hostapd.conf (wpa_passphrase=)."
        case .passwordCharacter(let character):
            "kiosk.wifi_password (from \(origin)) holds '\(character)': WPA2 takes printable ASCII only (letters, digits, space and punctuation), and guests type it by hand too. Choose one without it, here and in the booth's hostapd.conf."
        case .passwordOnOpenNetwork:
            "kiosk.wifi_security = open (from \(origin)) but kiosk.wifi_password is set: an open network has none. Leave the password out, or set kiosk.wifi_security = wpa2 to match a hostapd.conf with wpa_passphrase=."
        }
    }
}

extension OperatorWords {
    /// What the operator reads of a request that came after its guest moved on.
    package static func text(_ stale: StaleRequest) -> String {
        switch stale {
        case .post(let asked, let current):
            "shot \(asked) is not the current shot (\(current.map { "that is \($0)" } ?? "there is none")): a Post names the shot its guest reviewed, and that one was replaced or deleted. Nothing was posted."
        case .mail(let post):
            "post \(post) is not the post of the guest at the booth now (its thank-you is over): a mail is asked for from the thank-you. Nothing was queued."
        }
    }
}
