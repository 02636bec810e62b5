import ArgumentParser
import Foundation
import MediaEncoder
import Settings
import Shooting
import SystemSupport
@testable import RecorderCLI
import KioskService
import Testing
import VideoCapture
@testable import KioskState
import MediaValues
import Failures

/// What argument-parser prints for a command line that does not parse.
private func parseMessage<C: ParsableCommand>(_ command: C.Type, _ arguments: [String]) -> String? {
    do {
        _ = try command.parse(arguments)
        return nil
    } catch {
        return command.message(for: error)
    }
}

/// The error of the CLI's own value check (`ValueError`) that a command line ran into, as
/// argument-parser keeps it inside its error; nil when it parsed, or failed before any check
/// (a value taken for an option: "Missing value").
private func checkError<C: ParsableCommand>(_ command: C.Type, _ arguments: [String]) -> String? {
    do {
        _ = try command.parse(arguments)
        return nil
    } catch {
        return found(ValueError.self, in: error)?.description
    }
}

/// What the check itself says of `text`: the error a command line giving it must run into.
private func checkError<T>(_ check: (String) throws(ValueError) -> T, _ text: String) -> String? {
    do {
        _ = try check(text)
        return nil
    } catch {
        return error.description
    }
}

/// The first `T` inside a value (an error's payload, its payload's...), by reflection.
private func found<T>(_ type: T.Type, in value: Any) -> T? {
    if let match = value as? T { return match }
    for child in Mirror(reflecting: value).children {
        if let match = found(type, in: child.value) { return match }
    }
    return nil
}

/// Whether a command line is refused by a `validate()` (argument-parser's `ValidationError`, exit 64).
private func failsValidation<C: ParsableCommand>(_ command: C.Type, _ arguments: [String]) -> Bool {
    do {
        _ = try command.parse(arguments)
        return false
    } catch {
        return found(ValidationError.self, in: error) != nil && command.exitCode(for: error) == .validationFailure
    }
}

@Suite struct OptionValueTests {
    @Test func valuesWithALeadingDashReachTheCheck() throws {
        // Each is refused by its own check, with what that check says of the value (never
        // argument-parser's "Missing value"): the words are the check's, judged by EdgeWordsTests.
        let seconds = checkError(ShootCommand.self, ["--seconds", "-1"])
        #expect(seconds != nil && seconds == checkError(Seconds.shot, "-1"), "\(seconds ?? "none")")
        let crf = checkError(ShootCommand.self, ["--crf", "-1"])
        #expect(crf != nil && crf == checkError(WholeNumber.crf, "-1"), "\(crf ?? "none")")
        let size = checkError(ShootCommand.self, ["--size", "-320x240"])
        #expect(size != nil && size == checkError(PictureSize.parse, "-320x240"), "\(size ?? "none")")
        let fps = checkError(ShootCommand.self, ["--fps", "-5"])
        #expect(fps != nil && fps == checkError(FramesPerSecond.parse, "-5"), "\(fps ?? "none")")
        #expect(try ShootCommand.parse(["--fps", "240"]).fps == FramesPerSecond(240) && checkError(ShootCommand.self, ["--fps", "240.5"]) != nil)
        // --attempts 1 to 1000, --page from 1: their checks take the negative value and the bounds.
        #expect(checkError(PostCommand.self, ["--caption", "", "--attempts", "-1"]) != nil)
        #expect(checkError(PostCommand.self, ["--caption", "", "--attempts", "1001"]) != nil)
        #expect(try PostCommand.parse(["--caption", "", "--attempts", "1000"]).attempts == 1000)
        #expect(try PostCommand.parse(["--caption", "", "--attempts", "1"]).attempts == 1)
        #expect(checkError(FeedCommand.self, ["--page", "-2"]) != nil && checkError(FeedCommand.self, ["--page", "0"]) != nil)
        #expect(checkError(FeedCommand.self, ["--page", "1"]) == nil)
    }

    @Test func anExclusiveBoundIsWordedAsOne() throws {
        let stall = try #require(parseMessage(ShootCommand.self, ["--stall-timeout", "0"]))
        #expect(stall.contains("more than 0 and at most 600") && !stall.contains("between 0 and 600"), "\(stall)")
        #expect(parseMessage(ShootCommand.self, ["--min-seconds", "0"]) == nil)
    }

    @Test func anInfiniteNumberIsTooLargeNotInf() throws {
        let message = try #require(parseMessage(ShootCommand.self, ["--seconds", "1e400"]))
        #expect(message.contains("too large") && !message.contains("inf"), "\(message)")
        let tooLong = checkError(ShootCommand.self, ["--seconds", "99999"])
        #expect(tooLong != nil && tooLong == checkError(Seconds.shot, "99999"), "\(tooLong ?? "none")")
        #expect(try ShootCommand.parse(["--seconds", "21600"]).seconds == Seconds(21600) && checkError(ShootCommand.self, ["--seconds", "21600.5"]) != nil)
    }

    @Test func typesParseOnce() {
        #expect(PictureSize(argument: "640x360") == PictureSize(width: 640, height: 360))
        #expect(PictureSize(argument: "8x8") == nil)
        #expect(Seconds(argument: "2.5") == Seconds(2.5))
        #expect(Seconds(argument: "nan") == nil)
        #expect(FramesPerSecond(argument: "29.97") == FramesPerSecond(29.97))
    }
}

@Suite struct ShortOptionTests {
    @Test func shootTakesShortOptions() throws {
        let shoot = try ShootCommand.parse(["-t", "2", "-d", "testsrc", "-s", "640x360", "-r", "15", "-q"])
        #expect(shoot.seconds == Seconds(2) && shoot.device == "testsrc" && shoot.size == PictureSize(width: 640, height: 360))
        #expect(shoot.fps == FramesPerSecond(15) && shoot.quiet)
        #expect(try ShootCommand.parse(["-v"]).verbose)
        #expect(failsValidation(ShootCommand.self, ["-q", "-v"]))
    }

    @Test func feedPagesWithLimitAndStillTakesSize() throws {
        #expect(try FeedCommand.parse(["--limit", "5"]).size == 5)
        #expect(try FeedCommand.parse(["-n", "6"]).size == 6)
        #expect(try FeedCommand.parse(["--size", "7"]).size == 7)
        #expect(try FeedCommand.parse([]).size == 20)
        let zero = checkError(FeedCommand.self, ["--limit", "0"])
        #expect(zero != nil && zero == checkError(WholeNumber.pageSize, "0"), "\(zero ?? "none")")
        #expect(!FeedCommand.helpMessage().contains("--size"))
    }

    @Test func otherCommandsTakeQuietAndVerbose() throws {
        #expect(try FetchCommand.parse(["abcdefghij", "-q", "-o", "/tmp/x.mp4"]).quiet)
        #expect(try PostCommand.parse(["--caption", "", "-q"]).quiet)
        #expect(try KioskCommand.parse(["-v", "-t", "5", "-d", "testsrc"]).verbose)
    }

    /// `recorder kiosk --audio` as configuration.md documents it: `audio.device`, as for `recorder shoot`.
    @Test func theKioskTakesAudio() throws {
        #expect(try KioskCommand.parse(["--audio", "none"]).kioskFlags()["audio.device"] == "none")
        #expect(try KioskCommand.parse(["--audio", "hw:CARD=C920,DEV=0"]).kioskFlags()["audio.device"] == "hw:CARD=C920,DEV=0")
        #expect(try KioskCommand.parse([]).kioskFlags()["audio.device"] == nil)
    }

    @Test func postTakesAnIntroAndAnOutro() throws {
        let both = try PostCommand.parse(["--caption", "", "--intro", "/srv/brand/intro.png", "--outro", "/srv/brand/outro.mp4"])
        #expect(both.intro == "/srv/brand/intro.png" && both.outro == "/srv/brand/outro.mp4")
        // "" leaves out a configured one: kept as given, not as absent.
        #expect(try PostCommand.parse(["--caption", "", "--intro", ""]).intro == "")
        #expect(try PostCommand.parse(["--caption", ""]).intro == nil)
        #expect(PostCommand.helpMessage().contains("--intro") && PostCommand.helpMessage().contains("post.still_seconds"))
    }

    @Test func aMistypedCommandGetsASuggestion() throws {
        var message = ""
        #expect(throws: (any Error).self) {
            do { _ = try RecorderCommand.parseCommand(["shot"]) } catch {
                message = RecorderCommand.message(for: error)
                throw error
            }
        }
        #expect(message.contains("Did you mean 'shoot'?"), "\(message)")
        #expect(EditDistance.between("shot", "shoot") == 1)
        #expect(EditDistance.between("", "abc") == 3)
        #expect(try RecorderCommand.parseCommand(["config", "check"]) is ConfigCommand.Check)
    }
}

@Suite struct ShootConfigurationTests {
    private func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "shoot-conf-\(UUID().uuidString)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func shootTakesItsSettingsFromTheConfigurationUnlessFlagged() throws {
        let path = try file("""
            shoot.device = testsrc
            shoot.seconds = 2.5
            shoot.size = 320x240
            shoot.fps = 15
            shoot.format = yuyv
            shoot.preset = ultrafast
            shoot.crf = 30
            shoot.bitrate = 900
            shoot.min_seconds = 0.5
            workspace = /tmp/ws-from-file
            """)
        defer { unlink(path) }
        let configuration = try RecorderConfiguration(flags: [:], configFile: path, environment: ["HOME": "/nonexistent"])
        let request = try ShootCommand.parse([]).request(configuration)
        #expect(request.device == "testsrc" && request.seconds == 2.5 && request.capture.size == FrameSize(width: 320, height: 240))
        #expect(request.capture.frameRate == FrameRate(15) && request.capture.pixelFormat == PixelFormat(name: "yuyv"))
        #expect(request.encoder.preset == "ultrafast" && request.encoder.crf == 30 && request.encoder.bitrateKbps == 900)
        #expect(request.minimumSeconds == 0.5)
        #expect(try ShootCommand.parse([]).workspaceOptions.shotWorkspace(configuration).root == "/tmp/ws-from-file")

        let flagged = try ShootCommand.parse(["-t", "4", "--crf", "20", "--workspace", "/tmp/ws-flag"])
        #expect(try flagged.request(configuration).seconds == 4 && flagged.request(configuration).encoder.crf == 20)
        #expect(flagged.workspaceOptions.shotWorkspace(configuration).root == "/tmp/ws-flag")

        let defaults = try ShootCommand.parse([]).request(RecorderConfiguration(flags: [:], configFile: nil, environment: ["HOME": "/nonexistent"]))
        #expect(defaults.device == nil && defaults.seconds == 15 && defaults.encoder.crf == 23 && defaults.minimumSeconds == 1)
        #expect(defaults.encoder.preset == "veryfast" && defaults.capture.size == nil && defaults.encoder.bitrateKbps == nil)
    }

    @Test func postReadsTheConfiguredWorkspace() throws {
        let configuration = try RecorderConfiguration(flags: [:], configFile: nil,
                                                      environment: ["HOME": "/nonexistent", "RECORDER_WORKSPACE": "/srv/kiosk"])
        #expect(try PostCommand.parse(["--caption", ""]).workspaceOptions.shotWorkspace(configuration).root == "/srv/kiosk")
    }
}

/// Options that would do nothing are not accepted silently: a conflict is refused, an option the
/// source ignores is named with why.
@Suite struct ConfigurationCatalogueTests {
    @Test func everyCommandReadsTheKiosksKeysFromTheSharedFile() throws {
        // One file serves the kiosk and the command line: `recorder shoot` must accept the kiosk's keys in it.
        let path = NSTemporaryDirectory() + "conf-\(UUID().uuidString)"
        try "kiosk.listen = 127.0.0.1:9090\nkiosk.review_seconds = 12\nshoot.crf = 28\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { unlink(path) }
        let configuration = try ShootCommand.parse(["--config", path]).configOptions.configuration()
        #expect(configuration.text("kiosk.listen") == "127.0.0.1:9090" && configuration.origin("kiosk.review_seconds") == "\(path):2")
        try "kiosk.review_seconds = 2\n".write(toFile: path, atomically: true, encoding: .utf8)
        let error = #expect(throws: RecorderError.self) { try ShootCommand.parse(["--config", path]).configOptions.configuration() }
        #expect(error?.message.hasPrefix("\(path):1: kiosk.review_seconds = '2' must be a whole number from 3 to 600.") == true,
                "\(String(describing: error))")
    }

    @Test func theKeysPageListsEveryKeyOnceWithItsDefault() throws {
        let settings = SettingsCatalogue.withKiosk.settings
        let page = ConfigCommand.Keys.markdown(settings)
        let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.count == settings.count && page.contains("There are \(settings.count) keys."))
        for setting in settings {
            let row = rows.first { $0.hasPrefix("| `\(setting.key)` |") }
            #expect(row != nil, "\(setting.key) has no row")
            if let value = setting.defaultValue, !value.isEmpty {
                #expect(row?.contains("| `\(value.replacing("|", with: "\\|"))` |") == true, "\(setting.key)")
            }
        }
        // A value with a bar in it cannot break the table.
        #expect(rows.first { $0.hasPrefix("| `kiosk.trigger_match` |") }?.contains("button\\|switch") == true)
        #expect(page.contains("## `kiosk`") && page.contains("## `general`") && page.contains("| `kiosk.token` |"))
        _ = try ConfigCommand.parseAsRoot(["keys", "--markdown"])
    }
}

@Suite struct IgnoredOptionTests {
    @Test func crfAndBitrateTogetherAreRefused() throws {
        #expect(failsValidation(ShootCommand.self, ["--crf", "20", "--bitrate", "3000"]))
        #expect(parseMessage(ShootCommand.self, ["--crf", "20"]) == nil)
        #expect(parseMessage(ShootCommand.self, ["--bitrate", "3000"]) == nil)
    }

    @Test func optionsTheSourceIgnoresAreNamed() throws {
        let testPattern = try ShootCommand.parse(["--device", "testsrc", "--format", "mjpeg"])
        let notes = testPattern.ignoredOptions(for: ShotRequest(device: "testsrc", seconds: 1))
        #expect(notes.count == 1 && notes[0].contains("--format mjpeg does nothing for the test pattern"), "\(notes)")
        let y4m = try ShootCommand.parse(["--device", "y4m:/clip.y4m", "--fps", "25"])
        #expect(y4m.ignoredOptions(for: ShotRequest(device: "y4m:/clip.y4m", seconds: 1)).contains { $0.contains("--fps does nothing for a Y4M file") })
        let h264 = try ShootCommand.parse(["--format", "h264", "--crf", "18", "--preset", "slow"])
        let request = ShotRequest(device: "/dev/video0", seconds: 1, capture: CaptureRequest(pixelFormat: .h264))
        #expect(h264.ignoredOptions(for: request) == ["--crf, --preset do nothing with --format h264: the camera's H.264 is copied as it is, not encoded"])
        let plain = try ShootCommand.parse(["--device", "/dev/video0", "--format", "yuyv", "--crf", "18"])
        #expect(plain.ignoredOptions(for: ShotRequest(device: "/dev/video0", seconds: 1, capture: CaptureRequest(pixelFormat: .yuyv))).isEmpty)
    }
}

@Suite struct DevicesListenTests {
    @Test func listenTakesSecondsFromOneToSixHundred() throws {
        #expect(try DevicesCommand.parse(["--listen", "5"]).listen == 5)
        #expect(try DevicesCommand.parse([]).listen == nil)
        for bad in ["0", "601", "five", "nan", "-3"] {
            #expect(failsValidation(DevicesCommand.self, ["--listen", bad]), "\(bad)")
        }
        #expect(try DevicesCommand.parse(["--listen", "1"]).listen == 1 && DevicesCommand.parse(["--listen", "600"]).listen == 600)
    }

    @Test func theMeterShowsTheLevelFromMinusSixtyToFullScale() {
        func line(_ peak: Double?, problem: String? = nil) -> String {
            DevicesCommand.meterLine(MicrophoneCheck.Reading(name: "hw:CARD=Loopback,DEV=1", cardName: "Loopback", peakDBFS: peak,
                                                             rmsDBFS: nil, check: nil, problem: problem))
        }
        #expect(line(-120) == "hw:CARD=Loopback,DEV=1  [····················]    silence")
        #expect(line(-30) == "hw:CARD=Loopback,DEV=1  [##########··········]   -30.0 dBFS")
        #expect(line(-90).contains("[····················]"))
        #expect(line(0) == "hw:CARD=Loopback,DEV=1  [####################]     0.0 dBFS  CLIPPING")
        #expect(line(nil, problem: "busy").contains("not listened to: busy"))
    }
}


@Suite struct ReelParseTests {
    @Test func aNegativeLoudnessIsAValueAndBadValuesAreNamed() throws {
        let reel = try ReelCommand.parse(["--since", "2026-11-24", "--loudness", "-23", "--size", "1280x720", "--fps", "25", "--hidden", "yes"])
        #expect(reel.loudness == -23 && reel.size?.width == 1280 && reel.fps == 25 && reel.hidden == .yes && reel.prompt == nil)
        #expect(try ReelCommand.parse(["--since", "2026-11-24"]).hidden == .no)
        #expect(checkError(ReelCommand.self, ["--since", "2026-11-24", "--fps", "-5"]) != nil)
        #expect(checkError(ReelCommand.self, ["--since", "2026-11-24", "--fps", "61"]) != nil)
        #expect(try ReelCommand.parse(["--since", "2026-11-24", "--fps", "60"]).fps == 60)
        let hidden = try #require(parseMessage(ReelCommand.self, ["--since", "2026-11-24", "--hidden", "maybe"]))
        #expect(hidden.contains("no") && hidden.contains("yes"), "\(hidden)")
        let since = try #require(parseMessage(ReelCommand.self, []))
        #expect(since.contains("--since"), "\(since)")
    }
}
