package import Settings

/// The operator page's Event section: the settings an organiser sets there instead of editing
/// files, in the order the page shows them, and how each is edited. These are the keys the
/// operator's layer (`OperatorLayer`) may hold; every other key is shown read-only.
package enum EventSection {
    /// How a key is edited on the page.
    package enum Edit: String, Sendable, Encodable {
        /// Typed in as it is (a name, a number, an address).
        case value
        /// One of the rule's choices.
        case choice
        /// On or off.
        case toggle
        /// Typed in and never shown again (the Wi-Fi's password).
        case secret
        /// A text typed on the page, saved as a file in the state directory, which the key names
        /// (the questions, the consent text).
        case text
        /// A PNG uploaded, kept in the state directory, which the key names (the branding frame).
        case frame
        /// A user and a password for the mail server, saved as a file (mode 0600) the key names.
        case login
    }

    /// One field: its key, how it is edited, and the part of the section it is in.
    package struct Field: Sendable {
        package let key: String
        package let edit: Edit
        package let group: String

        init(_ key: String, _ edit: Edit, _ group: String) {
            self.key = key
            self.edit = edit
            self.group = group
        }
    }

    package static let fields: [Field] = [
        Field("event.name", .value, "event"),
        Field("kiosk.prompts", .text, "event"),
        Field("kiosk.consent", .text, "event"),
        Field("shoot.overlay", .frame, "frame"),
        Field("kiosk.seconds", .value, "shot"),
        Field("kiosk.countdown_seconds", .value, "shot"),
        Field("kiosk.effects", .value, "shot"),
        Field("kiosk.language", .choice, "shot"),
        Field("share.base_url", .value, "sharing"),
        Field("kiosk.wifi_ssid", .value, "sharing"),
        Field("kiosk.wifi_security", .choice, "sharing"),
        Field("kiosk.wifi_password", .secret, "sharing"),
        Field("mail.smtp_url", .value, "mail"),
        Field("mail.from", .value, "mail"),
        Field("mail.insecure", .toggle, "mail"),
        Field("mail.credentials_file", .login, "mail"),
        Field("retention.days", .value, "retention"),
    ]

    /// The keys the page may set.
    package static let keys = Set(fields.map(\.key))

    /// The field of `key`, when the page sets it.
    package static func field(_ key: String) -> Field? {
        fields.first { $0.key == key }
    }
}
