
/// `GET /api/admin/settings`: every key of the catalogue as a restart would read it now (the file,
/// the operator page's settings, the environment, the command line), where its value comes from,
/// and whether the page may change it. A secret's value is never in it: only whether it is set.
package struct SettingsDocument: Encodable, Sendable {
    package struct Entry: Encodable, Sendable {
        package var key: String
        /// What a value must look like, in a few words (`recorder config keys`' column).
        package var type: String
        package var summary: String
        /// The value in effect (the default when nothing sets it); nil for a secret, or a key with
        /// no value and no default.
        package var value: String?
        /// "default", "file:line", "operator page, 2026-11-29 14:02", an environment variable, "flag".
        package var origin: String
        /// The page may change it: an Event section key no environment variable or flag pins.
        package var editable: Bool
        package var secret: Bool
        /// For a secret, and for the mail's login: whether one is set.
        package var set: Bool?
        /// How the page edits it (`EventSection.Edit`) and where in the section; nil for the others.
        package var edit: String?
        package var group: String?
        package var choices: [String]?
        /// For a text the page edits (the questions, the consent text): the file's text.
        package var text: String?
        /// The kiosk runs with another value until it restarts.
        package var pending: Bool
    }

    /// One thing the saved settings cannot do, in the operator's words, and the keys it concerns.
    package struct Finding: Encodable, Sendable {
        package var keys: [String]
        package var error: String
        package var kind: String
    }

    /// What phones will open: a share link as these settings make them, and whether a phone can.
    package struct ShareReach: Encodable, Sendable {
        package var example: String
        package var opensOnPhones: Bool
    }

    package var settings: [Entry]
    /// The configuration file, and the operator page's own file (in kiosk.state_dir).
    package var file: String?
    package var operatorFile: String?
    /// Keys whose saved value the running kiosk does not use yet (a restart takes them).
    package var pending: [String]
    package var restart: KioskRestart.Status
    package var findings: [Finding]
    package var shareLinks: ShareReach?
}

/// `PUT /api/admin/settings`'s answer: what was saved, and what it takes to use it.
package struct SettingsSaved: Encodable, Sendable {
    package var saved: [String]
    /// Keys the kiosk runs with other values of until it restarts (the ones saved now among them).
    package var pending: [String]
    package var restartNeeded: Bool
    package var restart: KioskRestart.Status
}

/// A change refused (422): every thing the changed settings cannot do, in the operator's words
/// (as `recorder config check` says them), with the keys each concerns. Nothing was saved.
package struct SettingsRefused: Encodable, Sendable {
    package var error: String
    package var kind: String
    package var status: Int
    package var findings: [SettingsDocument.Finding]
}

/// `POST /api/admin/settings/check`: what the changes would make, nothing saved.
package struct SettingsChecked: Encodable, Sendable {
    package var findings: [SettingsDocument.Finding]
    package var shareLinks: SettingsDocument.ShareReach?
}
