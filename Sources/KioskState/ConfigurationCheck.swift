import Library
package import Publishing
package import Settings
package import Failures
import Posting
import MailValues
import Shooting
import KioskWords
import ShareServer

/// The one judge of a configuration: the catalogue's rules (each value), then everything the
/// kiosk refuses at its start (files it must read, keys that must agree). `recorder config check`
/// lists these findings, `recorder kiosk` stops at the first, `recorder doctor` reports it, and the
/// operator page refuses a change that makes one: the same cases, so the same words.
package enum ConfigurationCheck {
    /// One thing the configuration cannot do, and the keys it concerns (the page marks those fields).
    package struct Finding: Sendable, Equatable {
        package var keys: [String]
        package var error: RecorderError

        package init(keys: [String], error: RecorderError) {
            self.keys = keys
            self.error = error
        }
    }

    /// A check beyond the catalogue's rules, with the keys it reads.
    struct Check: Sendable {
        let keys: [String]
        let run: @Sendable (RecorderConfiguration) throws(RecorderError) -> Void

        init(_ keys: [String], _ run: @escaping @Sendable (RecorderConfiguration) throws(RecorderError) -> Void) {
            self.keys = keys
            self.run = run
        }
    }

    /// In the order the kiosk meets them at its start, so its first is the one it stops at.
    static let checks: [Check] = [
        Check(["kiosk.proxy_socket"]) { configuration throws(RecorderError) in _ = try KioskSettings.readProxySocket(configuration) },
        Check(["shoot.size", "shoot.fps", "shoot.format", "shoot.preset", "shoot.crf", "shoot.bitrate", "shoot.min_seconds",
               "shoot.overlay", "audio.device", "audio.bitrate_kbps"]) { configuration throws(RecorderError) in _ = try ShotRequest.configured(configuration) },
        Check(["post.intro", "post.outro", "post.still_seconds"]) { configuration throws(RecorderError) in try PostBookends.configured(configuration).check() },
        Check(["kiosk.wifi_ssid", "kiosk.wifi_security", "kiosk.wifi_password", "share.base_url"]) { configuration throws(RecorderError) in _ = try KioskSettings.readWifi(configuration) },
        Check(["kiosk.consent", "kiosk.language"]) { configuration throws(RecorderError) in
            _ = try KioskSettings.readConsent(configuration, language: configuration.text("kiosk.language") ?? "en")
        },
        Check(["kiosk.prompts"]) { configuration throws(RecorderError) in _ = try KioskSettings.readPrompts(configuration) },
        Check(["kiosk.on_state"]) { configuration throws(RecorderError) in _ = try KioskSettings.readHook(configuration) },
        Check(["kiosk.trigger", "kiosk.trigger_match"]) { configuration throws(RecorderError) in _ = try KioskSettings.readTrigger(configuration) },
        Check(["kiosk.token", "kiosk.token_file", "kiosk.booth_token", "kiosk.booth_token_file"]) { configuration throws(RecorderError) in _ = try KioskSettings.readTokens(configuration) },
        Check(["kiosk.listen", "kiosk.token", "kiosk.token_file"]) { configuration throws(RecorderError) in try KioskSettings.checkExposure(configuration) },
        Check(["mail.smtp_url", "mail.from", "mail.insecure", "mail.credentials_file", "mail.ca_file", "mail.subject", "mail.template"]) {
            configuration throws(RecorderError) in _ = try mailSettings(configuration)
        },
        Check(["backend", "local.path", "local.create", "s3.endpoint", "s3.bucket", "s3.addressing", "s3.credentials_file"]) {
            configuration throws(RecorderError) in _ = try configuration.makeBackend()
        },
        Check(["share.base_url", "share.expires_hours", "retention.days"]) { configuration throws(RecorderError) in _ = try ShareLinks(configuration) },
        Check(["kiosk.id", "retention.scope"]) { configuration throws(RecorderError) in _ = try RetentionScope(configuration) },
        // recorder serve's fleet page: quiet without a token, unless the organiser named its file.
        Check(["serve.token", "serve.token_file"]) { configuration throws(RecorderError) in _ = try ServeSettings.readToken(configuration) },
    ]

    /// Everything wrong with `configuration`: its own problems (the file, each value), then the
    /// kiosk's, each once.
    package static func findings(_ configuration: RecorderConfiguration) -> [Finding] {
        var found = configuration.problems.map { Finding(keys: $0.key.map { [$0] } ?? [], error: RecorderError($0)) }
        for check in checks {
            do throws(RecorderError) { try check.run(configuration) } catch {
                // (a bad value the catalogue found is met again by a check that reads it)
                if !found.contains(where: { $0.error == error }) { found.append(Finding(keys: check.keys, error: error)) }
            }
        }
        return found
    }

    /// The first thing wrong (what the kiosk stops at), or nil.
    package static func first(_ configuration: RecorderConfiguration) -> RecorderError? {
        findings(configuration).first?.error
    }

    /// `mail.*`, or nil while `mail.smtp_url` is empty; a setting that cannot work names its key.
    package static func mailSettings(_ configuration: RecorderConfiguration) throws(RecorderError) -> MailSettings? {
        do throws(MailSettingsProblem) {
            return try MailSettings.configured(configuration)
        } catch {
            let keys = configuration.settings.keys.filter { $0.hasPrefix("mail.") }
            throw .kiosk(.mailSettings(error, origins: Dictionary(uniqueKeysWithValues: keys.map { ($0, configuration.origin($0)) })))
        }
    }
}
