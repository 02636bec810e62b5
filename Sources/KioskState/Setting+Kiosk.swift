package import Settings
package import ShotValues
import Publishing
import Fleet
import KioskWords
import Failures
import ShareServer

extension Setting {
    /// The kiosk's settings (`kiosk.*`); it reads the core's too (shots, sound, the store, sharing).
    package static let kiosk: [Setting] = [
        Setting("kiosk.listen", .listen, default: KioskSettings.defaultListen,
                "address:port the kiosk's page and API listen on ([::1]:PORT for IPv6); beyond loopback an operator token is required"),
        Setting("kiosk.proxy_socket", default: "off",
                "the Unix socket the reverse proxy (the shipped nginx-recorder.conf) reaches the kiosk on, beside kiosk.listen, e.g. /run/recorder/proxy.sock (systemd's RuntimeDirectory=recorder), or off: requests on it come from phones on the event's network, named by the proxy's X-Real-IP (believed there alone), with the limits of any other machine's; the socket is made at start (mode 0666, in a directory the kiosk's user may write)"),
        Setting("kiosk.device", default: "auto",
                "the kiosk's camera: auto (the first camera, else the test pattern), a /dev path, a by-id name or testsrc"),
        Setting("kiosk.seconds", .number(1...KioskSettings.maximumSeconds), default: "15", "length of a kiosk shot in seconds"),
        Setting("kiosk.countdown_seconds", .number(0...60, integer: true), default: "3", "countdown before a kiosk shot starts, in seconds"),
        Setting("kiosk.token_file", credential: "kiosk-token",
                "file holding the operator's token (everything: the booth's calls, the operator page, moderation, the feed, metrics; needed when listening beyond loopback); its owner's alone (mode 0600), or root's and its group's (0640), unless systemd hands it over; an empty file means none"),
        Setting("kiosk.token", .token,
                "the operator's token itself, e.g. as RECORDER_KIOSK_TOKEN (prefer kiosk.token_file, which keeps it out of the configuration)"),
        Setting("kiosk.booth_token_file", credential: "kiosk-booth-token",
                "file holding the booth's token (the guest page's calls only: shoot, stop, review, post, discard its own shot, the live mirror, the status); empty or absent: the booth logs in with the operator's token"),
        Setting("kiosk.booth_token", .token, "the booth's token itself (prefer kiosk.booth_token_file)"),
        Setting("kiosk.state_dir", defaultNote: "$XDG_STATE_HOME/recorder/kiosk (/var/lib/recorder/kiosk under systemd)",
                "the kiosk's own state, kept across restarts: the key its session cookies are signed with and the sessions it has issued, and which phone may delete each shared post"),
        Setting("kiosk.max_connections", .number(16...10000, integer: true), default: "512",
                "connections the kiosk keeps open at once from other machines (the booth's own browser on loopback is never refused for this)"),
        Setting("kiosk.max_connections_per_client", .number(4...1000, integer: true), default: "32",
                "connections one address may keep open at once"),
        Setting("kiosk.mail_per_minute", .number(1...10000, integer: true), default: "20",
                "guests' mails (mail.*) the kiosk queues in any one minute, whoever asks: one more is refused until the minute has passed, and the operator page says the limit was reached (whoever holds the booth's token cannot send a flood from the booth's server)"),
        Setting("kiosk.mail_per_hour", .number(1...100000, integer: true), default: "200",
                "guests' mails the kiosk queues in any one hour, as kiosk.mail_per_minute does for a minute"),
        Setting("kiosk.hosts", default: "",
                "more host names the kiosk answers to (comma-separated), beyond the listen address, localhost, this machine's name and IP addresses; any other Host header is refused with 421 (DNS rebinding)"),
        Setting("kiosk.review_seconds", .number(3...600, integer: true), default: "30",
                "how long the guest page shows a new clip (Post, Retake, Delete) before it returns to the live camera by itself"),
        Setting("kiosk.review_unposted", .choice(["keep", "discard"]), default: "keep",
                "what happens to a clip nobody posted or deleted when the review times out: keep (it stays the current shot, for the operator) or discard"),
        Setting("kiosk.language", .choice(["en", "de"]), default: "en", "the guest page's language"),
        Setting("kiosk.prompts", default: "",
                "the full path of a UTF-8 text file of questions for the guests, one a line, in any script (blank lines and lines starting with # are left out; at most 200 characters a question): the guest page shows one at a time and keeps it through the countdown and the recording, and the post records it as prompt; empty for none"),
        Setting("kiosk.prompt_seconds", .number(3...120), default: "8",
                "how long the guest page shows each question of kiosk.prompts before the next, while nobody records"),
        Setting("kiosk.consent", default: "off",
                "off, or the full path of a UTF-8 text file (in kiosk.language, at most 4000 characters) a guest must agree to before anything is recorded: the guest page shows it with I agree / No, thanks, no shot starts without a yes (the page, the API and the button alike), and each post records the yes (consent: textSha256, acceptedAt, language) with the text stored once at consent/<sha256>.txt"),
        Setting("kiosk.on_state",
                "an executable (full path) the kiosk runs with each new state as its argument (idle, countdown, starting, recording, finishing, failed, camera-missing), to drive a lamp or a relay; at most 5 s a run, never waited for"),
        Setting("kiosk.trigger", default: "",
                "the booth's button, read by recorder itself: an input device node (a USB arcade button or foot switch is a keyboard: /dev/input/by-id/...-event-kbd), auto for the first USB or Bluetooth one whose name matches kiosk.trigger_match (never the machine's own power button), or empty for none; taken for recorder alone, it records, or stops a shot under way, and is taken again after it is unplugged and plugged back"),
        Setting("kiosk.trigger_match", default: "button|switch|pedal|foot",
                "for kiosk.trigger = auto: words separated by |, one of which (in any case) the input device's name contains"),
        Setting("kiosk.trigger_key", default: "",
                "one more key that works like the record button on the guest page, beside Space and Enter, as a browser names it (KeyboardEvent.key or .code, e.g. F13 or KeyR); empty for none"),
        Setting("kiosk.preview_idle_seconds", .number(1...3600), default: "10",
                "how long the live camera stays open after the last viewer (the guest page, the operator page's preview); then it is closed until somebody looks again"),
        Setting("kiosk.attract_seconds", .number(0...86400, integer: true), default: "0",
                "seconds without a guest before the start screen plays the recent posts (muted, one after another) over the live camera until somebody touches it; 0 for never"),
        Setting("kiosk.effects", .choices(ClipEffect.names), default: "",
                "the effects a guest chooses from on the start screen, in its language (a shot started by the booth's button gets the one chosen last), e.g. none, boomerang, slowmo; the first is chosen until a guest chooses; empty: no choice, every shot is shoot.effect"),
        Setting("kiosk.countdown_sound", .choice(["on", "off"]), default: "off",
                "on: a short beep at each number of the countdown and a higher one as recording starts, from the guest page"),
        Setting("kiosk.wifi_ssid", default: "",
                "the name of the booth's own Wi-Fi (ssid= in systemd/wifi/hostapd.conf; docs/venue.md), up to 32 bytes: the thank-you screen then shows two codes, 1. join the booth's Wi-Fi (the standard WIFI: code) and 2. open your video, and share.base_url must point at the share page ({token}), which the booth serves on its Wi-Fi; empty for none (the phones and the booth already share a network)"),
        Setting("kiosk.wifi_security", .choice(WifiNetwork.Security.allCases.map(\.rawValue)), default: "wpa2",
                "how phones join the booth's own Wi-Fi, as its hostapd.conf says: wpa2 (with kiosk.wifi_password) or open (no password: hostapd-open.conf)"),
        Setting("kiosk.wifi_password",
                "the password of the booth's own Wi-Fi (wpa_passphrase= in its hostapd.conf), 8 to 63 printable ASCII characters; the guests read it off the thank-you screen, in the Wi-Fi code and in words"),
    ]
}

extension SettingsCatalogue {
    /// The core's settings, the kiosk's, the guests' mail's, the event's, the share server's and
    /// the fleet's: what `recorder` accepts; the operator page sets its Event section's.
    package static let withKiosk = SettingsCatalogue(Setting.core, Setting.kiosk, Setting.mail, Setting.event, Setting.serve, Setting.fleet,
                                                     operatorKeys: EventSection.keys)
}
