import Settings

/// Where the command line sets or acts on a configuration key, in the CLI's words: added to the
/// settings catalogue's summaries wherever the CLI shows them (`recorder config keys`, and the
/// docs it writes), so the catalogue itself spells no flag (an operator's page never shows one).
enum SettingFlags {
    static let byKey: [String: String] = [
        "workspace": "`recorder shoot`, `post` and `kiosk`: --workspace",
        "shoot.device": "`recorder shoot`: -d/--device",
        "shoot.size": "`recorder shoot`: -s/--size",
        "shoot.fps": "`recorder shoot`: -r/--fps",
        "shoot.format": "`recorder shoot`: --format",
        "shoot.preset": "`recorder shoot`: --preset",
        "shoot.overlay": "`recorder shoot`: --overlay",
        "post.intro": "`recorder post`: --intro",
        "post.outro": "`recorder post`: --outro",
        "shoot.crf": "`recorder shoot`: --crf",
        "shoot.bitrate": "`recorder shoot`: --bitrate",
        "shoot.seconds": "`recorder shoot`: -t/--seconds",
        "shoot.min_seconds": "`recorder shoot`: --min-seconds",
        "audio.device": "`recorder shoot`: --audio",
        "retention.days": "at once: `recorder feed --purge-expired --yes`",
        "retention.local_days": "at once: `recorder feed --purge-expired --yes`",
        "kiosk.state_dir": "`recorder kiosk --end-sessions` ends the sessions",
        "mail.smtp_url": "`recorder post --email` sends through it too",
    ]

    /// The catalogue's summary of `setting`, with where the command line comes in, if it does.
    static func summary(_ setting: Setting) -> String {
        setting.summary + (byKey[setting.key].map { " (\($0))" } ?? "")
    }
}
