
/// Why the kiosk cannot start or answer, beyond the core's failures, with its data; its words are
/// the operator's (`OperatorWords`), and the CLI's where the command line has a flag for it.
package enum KioskProblem: RecorderFailure {
    // Settings that cannot work (the kiosk refuses to start)
    /// `kiosk.on_state` is not an executable file given by its full path.
    case hookNotExecutable(path: String, origin: String)
    /// `kiosk.trigger` is neither a full path, auto, nor empty.
    case triggerNotAPath(String, origin: String)
    /// `kiosk.trigger = auto` with no words in `kiosk.trigger_match`.
    case triggerWithoutWords(origin: String)
    /// The booth's token is the operator's.
    case sameTokens
    /// A booth token and no operator token.
    case boothTokenWithoutOperatorToken
    /// Listening beyond loopback (`listen`) with no token.
    case exposedWithoutToken(listen: String)
    /// A token file (`role`: "operator", "booth") that other users can read (its `mode`).
    case tokenFileShared(role: String, path: String, mode: UInt32)
    /// A token file that cannot be read.
    case tokenFileUnreadable(role: String, path: String)
    /// A token that is not one (`origin`: the setting or the file it came from).
    case weakToken(role: String, origin: String, TokenWeakness)
    /// `kiosk.proxy_socket` is not a full path.
    case proxySocketNotAbsolute(path: String, origin: String)
    /// `kiosk.proxy_socket` is longer than a Unix socket's path may be (107 bytes).
    case proxySocketTooLong(path: String, origin: String, bytes: Int)
    /// A setting naming a text file the guests read (`kiosk.prompts`, `kiosk.consent`) is not a full path.
    case guestTextNotAbsolute(key: String, value: String, origin: String)
    /// That file does not exist, or (`exists`) the kiosk's user cannot read it.
    case guestTextUnreadable(key: String, path: String, origin: String, exists: Bool)
    /// That file is larger than a screen's text (`bytes`).
    case guestTextTooLarge(key: String, path: String, origin: String, bytes: Int)
    /// The file's text cannot be used (a prompt or consent text problem).
    indirect case guestTextRefused(key: String, path: String, origin: String, RecorderError)
    /// The booth's Wi-Fi settings (`origin`: where the key at fault came from) cannot work.
    case wifi(WifiProblem, name: String, origin: String)
    /// With the booth's Wi-Fi, `share.base_url` (`base`, empty when not set) is not a share page
    /// the booth serves on it.
    case wifiNeedsSharePage(name: String, base: String, origin: String)
    // Listening
    /// `kiosk.proxy_socket` cannot be listened on (`reason`: the system's).
    case proxySocketFailed(path: String, reason: String)
    /// Another program listens on the address.
    case addressInUse(address: String, port: Int)
    /// The host is not an address of this machine.
    case notAnAddressHere(host: String)
    /// A port below 1024 without the privilege.
    case privilegedPort(host: String, port: Int)
    /// The server stopped (`reason`: the system's).
    case serverStopped(reason: String, address: String)
    // Requests
    /// The operator hid post `id`.
    case hidden(id: String)
    /// Post `id` has no poster.
    case noPoster(id: String)
    /// The kiosk has no token for `role`, so no session for it.
    case noTokenFor(role: String)
    /// The kiosk has no tokens at all: there are no sessions.
    case noTokens

    package var kind: RecorderError.Kind {
        switch self {
        case .hookNotExecutable, .triggerNotAPath, .triggerWithoutWords, .sameTokens, .boothTokenWithoutOperatorToken,
             .exposedWithoutToken, .tokenFileShared, .tokenFileUnreadable, .weakToken, .proxySocketNotAbsolute,
             .proxySocketTooLong, .guestTextNotAbsolute, .guestTextUnreadable, .guestTextTooLarge, .guestTextRefused,
             .wifi, .wifiNeedsSharePage, .proxySocketFailed, .notAnAddressHere:
            .misconfigured
        case .addressInUse, .serverStopped: .unavailable
        case .privilegedPort, .noTokenFor: .denied
        case .hidden, .noPoster: .notFound
        case .noTokens: .invalidRequest
        }
    }

    package var cause: RecorderError? {
        if case .guestTextRefused(_, _, _, let error) = self { return error }
        return nil
    }
}


extension KioskProblem {
    package var wrapped: RecorderError { .kiosk(self) }

    package init?(unwrapping error: RecorderError) {
        guard case .kiosk(let failure) = error else { return nil }
        self = failure
    }
}
