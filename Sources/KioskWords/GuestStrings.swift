import FoundationEssentials

/// Every string a guest at the booth reads, in each language the guest page offers
/// (`kiosk.language`): the page's own words and the failures `GuestWording` chooses.
///
/// One table, so a translation is one column and nothing a guest sees is worded elsewhere.
package enum GuestStrings {
    package enum Key: String, CaseIterable, Sendable, Codable {
        case title, invite, record, hint, hintTouch, getReady, recording, secondsLeft, stop, saving
        case reviewTitle, caption, post, retake, delete, sending, thanks, thanksDetail, deleted, returning, notReady, logIn, scanToGet, linkUntil, shareTitle, shareTitleAtEvent, download, shareGone
        case joinWifi, openVideo, wifiName, wifiPassword, wifiOpen, askStaff
        case deleteMine, deleteWarning, deleteForGood, deletedForGood, deleteFailed, deleteElsewhere
        case notHeard, tooLoud, soundCut
        case consentTitle, agree, decline, agreeHint, consentFirst, consentChanged
        case sendByMail, mailTitle, mailOptIn, mailSend, mailCancel, mailQueued, mailInvalid, mailTooMany, mailShift, mailBackspace
        case cameraUnavailable, notSaved, storageFull, busy, tooShort, tryAgain, notAnswering, lowSpace
        case backSoon, backSoonDetail
        case shareNotYet, shareNotYetDetail
        case downloadAll, galleryReel, galleryPlay, galleryEmpty, galleryLoading, galleryLoadFailed, galleryUntil, galleryCardHint
        case effectLabel, effectNone, effectBoomerang, effectSlowmo, saveLoop, loopGIF, downloadOriginal
    }

    /// The languages there are, English first (the fallback for a missing string).
    package static let languages = ["en", "de"]

    // "{n}" is filled in by the page or the share page (a time, a name, a count: `counted`). A
    // count and its unit are joined by a no-break space (U+00A0): "5 s" never breaks between lines.
    static let table: [String: [Key: String]] = [
        "en": [
            .title: "Leave a video message!",
            .record: "Record",
            .hint: "Tap the red button, or press the booth's button.",
            .hintTouch: "Tap the red button.",
            .getReady: "Get ready…",
            .recording: "Recording",
            .secondsLeft: "{n}\u{00A0}s left",
            .stop: "Stop",
            .saving: "Saving your video…",
            .reviewTitle: "How was it?",
            .caption: "Add a message (optional)",
            .post: "Post",
            .retake: "Retake",
            .delete: "Delete",
            .sending: "Sending…",
            .thanks: "Thank you!",
            .thanksDetail: "Your video is saved and on its way.",
            .deleted: "Deleted. Nothing was kept.",
            .scanToGet: "Scan this with your phone to get your video",
            .linkUntil: "The link works until {n}.",
            .joinWifi: "1. Join the booth's Wi-Fi",
            .openVideo: "2. Open your video",
            .wifiName: "Wi-Fi: {n}",
            .wifiPassword: "Password: {n}",
            .wifiOpen: "No password",
            .askStaff: "To get your video on your phone, please ask the staff.",
            .shareTitle: "Your video from the booth",
            .shareTitleAtEvent: "Your video from {n}",
            .download: "Download the video",
            .shareGone: "This link does not open a video: it has expired, or the video was taken down.",
            .deleteMine: "Delete my video",
            .deleteWarning: "This deletes your video, its picture and its message from the booth for good. Nobody can open this link afterwards, you included.",
            .deleteForGood: "Delete it for good",
            .deletedForGood: "Your video is deleted. This link opens nothing now.",
            .deleteFailed: "Your video could not be deleted just now. Please try again in a minute.",
            .deleteElsewhere: "Only the phone that first opened this link at the booth can delete this video. To have it deleted, ask the booth's staff.",
            .notHeard: "We could not hear you. Retake?",
            .tooLoud: "That was so loud it will sound distorted. Retake, a little further from the microphone?",
            .soundCut: "The sound stopped part of the way through. Retake?",
            .returning: "Back to the camera in {n}\u{00A0}s",
            .notReady: "This booth is not set up yet. Please ask the host for help.",
            .logIn: "Staff: log this screen in",
            .cameraUnavailable: "The camera is not available right now. Please ask the host for help.",
            .notSaved: "We could not save your video. Please ask the host for help.",
            .storageFull: "The booth is out of space, so your video could not be saved. Please ask the host for help.",
            .busy: "The booth is busy. Please try again in a moment.",
            .tooShort: "That recording was too short to keep. Press the button to try again.",
            .tryAgain: "Something went wrong. Please try again.",
            .consentTitle: "Before we record",
            .agree: "I agree",
            .decline: "No, thanks",
            .agreeHint: "Or press the booth's button to agree.",
            .consentFirst: "Please read this and agree before recording.",
            .consentChanged: "The text to agree to has just changed. Please read it again.",
            .sendByMail: "Send it to my email",
            .mailTitle: "Your email address",
            .mailOptIn: "We use your address only to send you this video, and delete it once the mail has gone.",
            .mailSend: "Send",
            .mailCancel: "Cancel",
            .mailQueued: "Your video is on its way to your inbox. It can take a few minutes.",
            .mailInvalid: "That does not look like an email address. Please check it.",
            .mailTooMany: "This video has been sent to enough addresses.",
            .mailShift: "Shift",
            .mailBackspace: "Delete a letter",
            .notAnswering: "The booth is not answering. Please ask the host for help.",
            .lowSpace: "The booth is nearly out of space. Please tell the host.",
            .backSoon: "Back in a moment",
            .backSoonDetail: "The booth is taking a short break. Please come back in a few minutes.",
            .shareNotYet: "This video is not here (yet).",
            .downloadAll: "Download all",
            .galleryReel: "Highlights",
            .galleryPlay: "Play",
            .galleryEmpty: "No videos here (yet).",
            .galleryLoading: "Loading more videos…",
            .galleryLoadFailed: "The next videos could not be loaded. Scroll down to try again.",
            .galleryUntil: "This gallery opens until {n}.",
            .galleryCardHint: "Scan the code with your phone's camera to watch every video of the event and download them all.",
            .effectLabel: "Effect",
            .effectNone: "Normal",
            .effectBoomerang: "Boomerang",
            .effectSlowmo: "Slow motion",
            .saveLoop: "Save as a loop",
            .loopGIF: "Get it as an animated GIF",
            .downloadOriginal: "Download the original take",
        ],
        "de": [
            .title: "Hinterlasst eine Videobotschaft!",
            .record: "Aufnehmen",
            .hint: "Tippt auf den roten Knopf oder drückt den Knopf der Box.",
            .hintTouch: "Tippt auf den roten Knopf.",
            .getReady: "Macht euch bereit…",
            .recording: "Aufnahme",
            .secondsLeft: "noch {n}\u{00A0}s",
            .stop: "Stopp",
            .saving: "Euer Video wird gespeichert…",
            .reviewTitle: "Wie war's?",
            .caption: "Nachricht hinzufügen (optional)",
            .post: "Posten",
            .retake: "Nochmal",
            .delete: "Löschen",
            .sending: "Wird gesendet…",
            .thanks: "Danke!",
            .thanksDetail: "Euer Video ist gespeichert und unterwegs.",
            .deleted: "Gelöscht. Nichts wurde behalten.",
            .scanToGet: "Mit dem Handy scannen und das Video holen",
            .linkUntil: "Der Link gilt bis {n}.",
            .joinWifi: "1. Mit dem WLAN der Box verbinden",
            .openVideo: "2. Euer Video öffnen",
            .wifiName: "WLAN: {n}",
            .wifiPassword: "Passwort: {n}",
            .wifiOpen: "Ohne Passwort",
            .askStaff: "Euer Video aufs Handy? Fragt bitte das Personal der Box.",
            .shareTitle: "Euer Video aus der Box",
            .shareTitleAtEvent: "Euer Video von {n}",
            .download: "Video herunterladen",
            .shareGone: "Dieser Link öffnet kein Video: Er ist abgelaufen, oder das Video wurde entfernt.",
            .deleteMine: "Mein Video löschen",
            .deleteWarning: "Damit werden euer Video, sein Bild und eure Nachricht endgültig aus der Box gelöscht. Danach öffnet niemand mehr diesen Link, auch ihr nicht.",
            .deleteForGood: "Endgültig löschen",
            .deletedForGood: "Euer Video ist gelöscht. Dieser Link öffnet jetzt nichts mehr.",
            .deleteFailed: "Euer Video konnte gerade nicht gelöscht werden. Bitte versucht es in einer Minute noch einmal.",
            .deleteElsewhere: "Nur das Handy, das diesen Link zuerst an der Box geöffnet hat, kann dieses Video löschen. Soll es gelöscht werden, fragt das Personal der Box.",
            .notHeard: "Wir konnten euch nicht hören. Noch einmal?",
            .tooLoud: "Das war so laut, dass es verzerrt klingt. Noch einmal, etwas weiter vom Mikrofon weg?",
            .soundCut: "Der Ton ist mittendrin abgebrochen. Noch einmal?",
            .returning: "Zurück zur Kamera in {n}\u{00A0}s",
            .notReady: "Diese Box ist noch nicht eingerichtet. Bitte fragt die Gastgeber um Hilfe.",
            .logIn: "Personal: diesen Bildschirm anmelden",
            .cameraUnavailable: "Die Kamera ist gerade nicht verfügbar. Bitte fragt die Gastgeber um Hilfe.",
            .notSaved: "Wir konnten euer Video nicht speichern. Bitte fragt die Gastgeber um Hilfe.",
            .storageFull: "Die Box hat keinen Platz mehr, euer Video wurde nicht gespeichert. Bitte fragt die Gastgeber um Hilfe.",
            .busy: "Die Box ist gerade beschäftigt. Bitte versucht es gleich noch einmal.",
            .tooShort: "Die Aufnahme war zu kurz. Drückt den Knopf, um es noch einmal zu versuchen.",
            .tryAgain: "Etwas ist schiefgegangen. Bitte versucht es noch einmal.",
            .consentTitle: "Bevor wir aufnehmen",
            .agree: "Einverstanden",
            .decline: "Nein, danke",
            .agreeHint: "Oder drückt den Knopf der Box, um zuzustimmen.",
            .consentFirst: "Bitte lest das und stimmt zu, bevor ihr aufnehmt.",
            .consentChanged: "Der Text hat sich gerade geändert. Bitte lest ihn noch einmal.",
            .sendByMail: "Per E-Mail an mich schicken",
            .mailTitle: "Eure E-Mail-Adresse",
            .mailOptIn: "Wir nutzen eure Adresse nur, um euch dieses Video zu schicken, und löschen sie, sobald die E-Mail raus ist.",
            .mailSend: "Senden",
            .mailCancel: "Abbrechen",
            .mailQueued: "Euer Video ist auf dem Weg in euer Postfach. Das kann ein paar Minuten dauern.",
            .mailInvalid: "Das sieht nicht wie eine E-Mail-Adresse aus. Bitte prüft sie.",
            .mailTooMany: "Dieses Video wurde schon an genug Adressen geschickt.",
            .mailShift: "Umschalt",
            .mailBackspace: "Zeichen löschen",
            .notAnswering: "Die Box antwortet nicht. Bitte fragt die Gastgeber um Hilfe.",
            .lowSpace: "Die Box hat bald keinen Platz mehr. Bitte sagt den Gastgebern Bescheid.",
            .backSoon: "Gleich wieder da",
            .backSoonDetail: "Die Box macht eine kurze Pause. Schaut in ein paar Minuten wieder vorbei.",
            .shareNotYet: "Dieses Video ist (noch) nicht da.",
            .downloadAll: "Alle herunterladen",
            .galleryReel: "Highlights",
            .galleryPlay: "Abspielen",
            .galleryEmpty: "Hier sind (noch) keine Videos.",
            .galleryLoading: "Weitere Videos werden geladen…",
            .galleryLoadFailed: "Die nächsten Videos konnten nicht geladen werden. Scrollt weiter, um es noch einmal zu versuchen.",
            .galleryUntil: "Diese Galerie ist bis {n} erreichbar.",
            .galleryCardHint: "Scannt den Code mit der Handykamera: Dort seht ihr alle Videos des Abends und könnt sie alle herunterladen.",
            .effectLabel: "Effekt",
            .effectNone: "Normal",
            .effectBoomerang: "Boomerang",
            .effectSlowmo: "Zeitlupe",
            .saveLoop: "Als Loop speichern",
            .loopGIF: "Als animiertes GIF holen",
            .downloadOriginal: "Originalaufnahme herunterladen",
        ],
    ]

    /// The strings with a count in them ("{n} seconds"), in each plural form of the language
    /// (CLDR's categories: en and de have "one" and "other"; a language with more forms, such as
    /// Polish's "few" and "many", gives those too and its rule in `PluralCategory.of`). Not in `table`.
    /// (A count shown with a unit's symbol, "{n} s", has one form and stays in `table`.)
    static let counted: [String: [Key: [PluralCategory: String]]] = [
        "en": [
            .invite: [.one: "Press the button and talk to the camera for {n}\u{00A0}second.",
                      .other: "Press the button and talk to the camera for {n}\u{00A0}seconds."],
            .shareNotYetDetail: [
                .one: "If it was recorded in the last hours, the booth may still be sending it: please try again in {n}\u{00A0}minute. A link that has expired, or whose video was taken down, does not open again.",
                .other: "If it was recorded in the last hours, the booth may still be sending it: please try again in {n}\u{00A0}minutes. A link that has expired, or whose video was taken down, does not open again.",
            ],
        ],
        "de": [
            .invite: [.one: "Drückt den Knopf und sprecht {n}\u{00A0}Sekunde in die Kamera.",
                      .other: "Drückt den Knopf und sprecht {n}\u{00A0}Sekunden in die Kamera."],
            .shareNotYetDetail: [
                .one: "Wurde es in den letzten Stunden aufgenommen, sendet die Box es vielleicht noch: Bitte versucht es in {n}\u{00A0}Minute noch einmal. Ein abgelaufener Link oder einer, dessen Video entfernt wurde, öffnet nichts mehr.",
                .other: "Wurde es in den letzten Stunden aufgenommen, sendet die Box es vielleicht noch: Bitte versucht es in {n}\u{00A0}Minuten noch einmal. Ein abgelaufener Link oder einer, dessen Video entfernt wurde, öffnet nichts mehr.",
            ],
        ],
    ]

    /// The string in `language`, else in English (a counted one in its general form, "other").
    package static func text(_ key: Key, _ language: String = "en") -> String {
        table[language]?[key] ?? counted[language]?[key]?[.other] ?? table["en"]?[key] ?? counted["en"]![key]![.other]!
    }

    /// The string in `language` (else in English) with the count `n` in it, in the form `n` takes.
    package static func text(_ key: Key, _ language: String, count n: Int) -> String {
        let forms = counted[language]?[key] ?? counted["en"]?[key]
        let text = forms.map { $0[PluralCategory.of(n, language)] ?? $0[.other]! } ?? text(key, language)
        return text.replacing("{n}", with: String(n))
    }

    /// The whole column for the page, as a JSON object (key: string; a counted string's key: an
    /// object of its plural forms, category: string, the page choosing by `Intl.PluralRules`), safe
    /// inside a script element (every less-than sign escaped).
    package static func json(_ language: String) -> String {
        var column: [String: Entry] = [:]
        for key in Key.allCases {
            let forms = counted[language]?[key] ?? counted["en"]?[key]
            column[key.rawValue] = forms.map { .forms(Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, $0.value) })) }
                ?? .text(text(key, language))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(column)) ?? Data("{}".utf8)
        // (no "</script>" can end the script early: every < is escaped)
        return String(decoding: data, as: UTF8.self).replacing("<", with: "\\u003c")
    }

    /// One key's value in the page's column: its string, or a counted string's forms.
    enum Entry: Encodable {
        case text(String)
        case forms([String: String])

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .text(let text): try container.encode(text)
            case .forms(let forms): try container.encode(forms)
            }
        }
    }
}
