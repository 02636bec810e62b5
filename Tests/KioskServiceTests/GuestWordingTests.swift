import AudioCapture
import MediaEncoder
import Settings
import Shooting
import StorageUpload
import Testing
import VideoCapture
@testable import KioskService
import SystemSupport
@testable import KioskWords
import MediaValues
import StoreValues
import Failures

/// Guests are told one plain sentence, chosen by what happened; the operator's detail (paths,
/// errno, settings, commands) never reaches it.
@Suite struct GuestWordingTests {
    @Test func failuresAreWordedByWhatHappened() {
        let unplugged = RecorderError(CaptureError(.disconnected, device: "/dev/video0", operation: "VIDIOC_DQBUF", errno: 19))
        #expect(GuestWording.sentence(for: unplugged) == GuestWording.cameraUnavailable)
        let full = RecorderError(MediaError(.diskFull, operation: "av_write_frame", code: -28, path: "/run/recorder/x/video.mp4"))
        #expect(GuestWording.sentence(for: full) == GuestWording.storageFull)
        let busyCamera = RecorderError(CaptureError(.busy, device: "/dev/video0", operation: "open", errno: 16))
        #expect(GuestWording.sentence(for: busyCamera) == GuestWording.busy)
        let micGone = RecorderError(AudioError(.driverFailure, device: "hw:CARD=A,DEV=0", operation: "snd_pcm_prepare", errno: 5))
        #expect(GuestWording.sentence(for: micGone) == GuestWording.notSaved)
        let store = RecorderError(StorageError.local("write", "/srv/store/x", code: 13))
        #expect(GuestWording.sentence(for: store) == GuestWording.notSaved)
        let short = RecorderError(ShotFailure.stoppedUnderMinimum(recorded: 0.2, minimum: 1))
        #expect(GuestWording.sentence(for: short) == GuestWording.tooShort)
    }

    @Test func everyStringInEveryLanguage() {
        for language in GuestStrings.languages {
            for key in GuestStrings.Key.allCases {
                // (once: a string with a count is in `counted`, in every form the language has)
                let forms = GuestStrings.counted[language]?[key]
                #expect((GuestStrings.table[language]?[key] == nil) != (forms == nil), "\(language) has no \(key), or has it twice")
                for form in PluralCategory.forms(language) where forms != nil {
                    #expect(forms?[form]?.isEmpty == false, "\(language) \(key) has no \(form) form")
                }
            }
            #expect(GuestStrings.counted[language].map { Set($0.keys) } == GuestStrings.counted["en"].map { Set($0.keys) }, "\(language)")
        }
        #expect(GuestStrings.text(.record, "de") == "Aufnehmen")
        #expect(GuestStrings.text(.record, "xx") == "Record")
        let page = GuestPage.html(language: "de")
        #expect(page.contains("<html lang=\"de\">") && page.contains(#""post":"Posten""#), "\(page.prefix(300))")
        // The table goes into a <script>: nothing in it can close the script early.
        #expect(!GuestStrings.json("en").contains("<"))
    }

    @Test func noSentenceCarriesOperatorDetail() {
        let sentences = [GuestWording.cameraUnavailable, GuestWording.notSaved, GuestWording.storageFull, GuestWording.busy,
                         GuestWording.tooShort, GuestWording.tryAgain]
        for sentence in sentences {
            for detail in ["--", "/", "errno", "recorder ", "`", "Ctrl-C", "=", "exit"] {
                #expect(!sentence.contains(detail), "\(sentence) contains \(detail)")
            }
            #expect(sentence.hasSuffix("."), "\(sentence)")
        }
    }
}
