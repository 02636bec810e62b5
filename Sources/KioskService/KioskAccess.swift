import Settings
import SystemSupport
package import KioskHTTP
import KioskState
import Failures
import Publishing

/// Who may call the kiosk: its two tokens, the sessions browsers earn at `/login` (none without
/// tokens: loopback only), and the throttle on wrong tokens, shared by the guard and the login
/// route.
package struct KioskAccess: Sendable {
    package let credentials: KioskCredentials
    /// Wrong tokens per client.
    package let throttle: LoginThrottle

    init(settings: KioskSettings, throttle: LoginThrottle, clock: any RecorderClock) throws(RecorderError) {
        let tokens = KioskCredentials.tokens(operatorToken: settings.token, boothToken: settings.boothToken)
        let sessions = tokens.isEmpty ? nil : try SessionStore(directory: settings.stateDirectory, tokens: tokens, clock: clock,
                                                                           authenticate: MessageAuthentication.sha256)
        credentials = KioskCredentials(operatorToken: settings.token, boothToken: settings.boothToken, sessions: sessions)
        self.throttle = throttle
    }

    /// The browsers logged in at /login (nil without tokens).
    package var sessions: SessionStore? { credentials.sessions }
}
