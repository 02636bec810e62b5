import AudioCapture
import KioskService
import Library
import MailValues
import MediaEncoder
import Publishing
@testable import RecorderCLI
import Settings
import Shooting
@testable import StorageUpload
import SystemSupport
@testable import VideoCapture
import KioskWords
import MediaValues
import StoreValues
import Failures

/// One failure of every case of every failure enum (and of the lower errors' kinds that the edges
/// word around), named: what the edges' word tables (snapshots) and the no-flag check walk.
enum FailureSamples {
    static let store = StorageError.local("write", "/srv/store/videos/abc.mp4", code: 13)
    static let media = MediaError(.badInput, .call(function: "avformat_open_input", message: "Invalid data found when processing input"), code: -1094995529, path: "/srv/intro.mp4")
    static let camera = RecorderError(CaptureError(.disconnected, device: "/dev/video0", operation: "VIDIOC_DQBUF", errno: 19))
    static let microphone = RecorderError(AudioError(.noSuchDevice(available: ["hw:CARD=A,DEV=0"]), device: "hw:CARD=B,DEV=0", operation: "snd_pcm_open"))
    /// The camera's other failures (the words name the group to join, the holder's command, the
    /// formats there are, a file cut short).
    static let cameras: [(String, CaptureError)] = [
        ("CaptureError.noSuchDevice", CaptureError(.noSuchDevice, device: "/dev/video9", operation: "open", errno: 2)),
        ("CaptureError.notACaptureDevice", CaptureError(.notACaptureDevice, device: "/dev/video1", operation: "VIDIOC_QUERYCAP")),
        ("CaptureError.permissionDenied", CaptureError(.permissionDenied(group: "video"), device: "/dev/video0", operation: "open", errno: 13)),
        ("CaptureError.permissionDenied.unknown", CaptureError(.permissionDenied(group: nil), device: "/dev/video0", operation: "open", errno: 13)),
        ("CaptureError.busy", CaptureError(.busy, device: "/dev/video0", operation: "VIDIOC_STREAMON", errno: 16)),
        ("CaptureError.stalled", CaptureError(.stalled(seconds: 5), device: "/dev/video0", operation: "select")),
        ("CaptureError.unsupportedFormat", negotiated(CaptureRequest(pixelFormat: .nv12))),
        ("CaptureError.badInput", CaptureError(.badInput, device: "/tmp/clip.y4m", operation: "read frame 1", detail: "the file ends inside a frame; it was truncated.")),
        ("CaptureError.driverFailure", CaptureError(.driverFailure, device: "/dev/video0", operation: "VIDIOC_S_FMT", errno: 5)),
    ]
    /// What the negotiator says of a webcam (YUYV and MJPEG) asked for what it cannot give.
    static func negotiated(_ request: CaptureRequest) -> CaptureError {
        func format(_ pixelFormat: PixelFormat) -> FormatCapability {
            FormatCapability(pixelFormat: pixelFormat, fourcc: pixelFormat.fourcc, label: pixelFormat.name, isEmulated: false,
                             sizes: .discrete([SizeOption(size: FrameSize(width: 640, height: 480), rates: .discrete([FrameRate(30)]))]))
        }
        do throws(CaptureError) {
            _ = try FormatNegotiator.choose(from: [format(.yuyv), format(.mjpeg)], request: request, device: "cam")
            return CaptureError(.driverFailure, device: "cam", operation: "negotiate", detail: "the negotiator took \(request)")
        } catch {
            return error
        }
    }

    /// The store's refusals as S3 answers them, worded by the store's own classifier.
    static let storeRefusals: [(String, StorageError)] = [
        ("StorageError.accessDenied", (403, "SignatureDoesNotMatch")), ("StorageError.http.clock", (403, "RequestTimeTooSkewed")),
        ("StorageError.missingContainer", (404, "NoSuchBucket")), ("StorageError.http.busy", (503, "SlowDown")),
        ("StorageError.http.refused", (400, "InvalidArgument")),
    ].map { name, answer in
        (name, S3Response.failure(status: answer.0, body: "<Error><Code>\(answer.1)</Code><Message>said &amp; done</Message></Error>",
                                  operation: .upload, target: "videos/AbCdEfGh12.mp4", credentials: "the environment"))
    }
    static let diskFull = MediaError(.diskFull, .call(function: "av_write_frame", message: "No space left on device"), code: -28, path: "/run/recorder/.incoming-1/recording.mp4")
    /// The encoder's other reasons, one each (the words say what happened by the reason, what to
    /// do by the kind).
    static let medias: [(String, MediaError)] = [
        ("MediaError.noObject", MediaError(.failed, .noObject(function: "avformat_new_stream"), path: "/ws/.incoming-1/recording.mp4")),
        ("MediaError.system", MediaError(.diskFull, .system(function: "fdatasync", errno: 28), code: 28, path: "/ws/.incoming-1/recording.mp4")),
        ("MediaError.system.permission", MediaError(.permissionDenied, .call(function: "avio_open", message: "Permission denied"), code: -13, path: "/ws/.incoming-1/recording.mp4")),
        ("MediaError.system.open", MediaError(.badInput, .system(function: "open", errno: 2), code: 2, path: "/etc/recorder/frame.png")),
        ("MediaError.system.tooLarge", MediaError(.badInput, .system(function: "read", errno: 27), code: 27, path: "/etc/recorder/frame.png")),
        ("MediaError.librariesUnloadable", MediaError(.missingCodec, .librariesUnloadable(loader: "libavcodec.so.59: cannot open shared object file"))),
        ("MediaError.filterLibraryUnloadable", MediaError(.missingCodec, .filterLibraryUnloadable(loader: "libavfilter.so.8: cannot open shared object file"))),
        ("MediaError.noEncoder", MediaError(.missingCodec, .noEncoder(.libx264))),
        ("MediaError.noDecoder", MediaError(.missingCodec, .noDecoder(.png))),
        ("MediaError.noDecoder.video", MediaError(.missingCodec, .noDecoder(.video))),
        ("MediaError.sizeNotEncodable", MediaError(.badInput, .sizeNotEncodable(width: 15, height: 15))),
        ("MediaError.sizeNotEncodable.take", MediaError(.badInput, .sizeNotEncodable(width: 15, height: 15), path: "/ws/shots/1/take.mp4")),
        ("MediaError.overlayOnH264", MediaError(.badInput, .overlayOnH264)),
        ("MediaError.directReadUnavailable", MediaError(.failed, .directReadUnavailable)),
        ("MediaError.noPictureReserved", MediaError(.failed, .noPictureReserved)),
        ("MediaError.noFrameRecorded", MediaError(.badInput, .noFrameRecorded(skipped: 12, dropped: 1))),
        ("MediaError.cannotConvert", MediaError(.badInput, .cannotConvert(format: "yuyv422", width: 1920, height: 1080))),
        ("MediaError.nothingConverted", MediaError(.failed, .nothingConverted)),
        ("MediaError.cannotScale", MediaError(.failed, .cannotScale(width: 1280, height: 720), path: "/etc/recorder/frame.png")),
        ("MediaError.noPreviewOfH264", MediaError(.badInput, .noPreviewOfH264)),
        ("MediaError.damagedJPEG", MediaError(.badInput, .damagedJPEG)),
        ("MediaError.frameShorterThanFormat", MediaError(.badInput, .frameShorterThanFormat)),
        ("MediaError.noPreviewEncoder", MediaError(.failed, .noPreviewEncoder)),
        ("MediaError.unexpected", MediaError(.failed, .unexpected(type: "CancellationError"))),
        ("MediaError.notPNG", MediaError(.badInput, .notPNG, path: "/etc/recorder/frame.png")),
        ("MediaError.pngUndecodable", MediaError(.badInput, .pngUndecodable, code: -1094995529, path: "/etc/recorder/frame.png")),
        ("MediaError.pictureTooLarge", MediaError(.badInput, .pictureTooLarge(width: 10000, height: 800), path: "/etc/recorder/frame.png")),
        ("MediaError.pixelsUnreadable", MediaError(.badInput, .pixelsUnreadable(format: "pal8"), path: "/etc/recorder/frame.png")),
        ("MediaError.noVideoStream", MediaError(.badInput, .noVideoStream, path: "/srv/intro.mp4")),
        ("MediaError.noDecodablePicture", MediaError(.badInput, .noDecodablePicture, path: "/srv/intro.mp4")),
        ("MediaError.pictureTooSmall", MediaError(.badInput, .pictureTooSmall(width: 8, height: 8), path: "/srv/intro.mp4")),
        ("MediaError.levelledSoundSilent", MediaError(.failed, .levelledSoundSilent, path: "/ws/shots/1/take.mp4")),
        ("MediaError.noSound", MediaError(.badInput, .noSound, path: "/ws/shots/1/take.mp4")),
        ("MediaError.slowMotionFactor", MediaError(.badInput, .slowMotionFactor(factor: 20), path: "/ws/shots/1/take.mp4")),
        ("MediaError.boomerangTooShort", MediaError(.badInput, .boomerangTooShort(pictures: 2), path: "/ws/shots/1/take.mp4")),
        ("MediaError.reelFormat", MediaError(.badInput, .reelFormat(width: 1279, height: 720, frameRate: 30, channels: 6))),
        ("MediaError.reelPartFormat", MediaError(.failed, .reelPartFormat(format: 4, width: 640, height: 480, reelWidth: 1280, reelHeight: 720))),
        ("MediaError.postNotAdded", MediaError(.badInput, .postNotAdded(id: "AbCdEfGh12"))),
    ]

    /// The microphone's other failures, as ALSA reports them (the words name the device, its holder,
    /// the group to join, the way out).
    static let microphones: [(String, AudioError)] = [
        ("AudioError.noSuchDevice.two", AudioError(.noSuchDevice(available: ["hw:CARD=C920,DEV=0", "hw:CARD=Loopback,DEV=1"]),
                                                   device: "hw:CARD=Gone,DEV=0", operation: "snd_pcm_open", errno: 19)),
        ("AudioError.noSuchDevice.none", AudioError(.noSuchDevice(available: []), device: "default", operation: "snd_pcm_open", errno: 2)),
        ("AudioError.busy", AudioError(.busy(holders: "4242 (arecord)"), device: "hw:CARD=C920,DEV=0", operation: "snd_pcm_open", errno: 16)),
        ("AudioError.busy.unknown", AudioError(.busy(holders: nil), device: "hw:CARD=C920,DEV=0", operation: "snd_pcm_open", errno: 16)),
        ("AudioError.permissionDenied", AudioError(.permissionDenied(group: "audio"), device: "hw:0", operation: "snd_pcm_open", errno: 13)),
        ("AudioError.unsupportedFormat", AudioError(.unsupportedFormat, device: "hw:0", operation: "snd_pcm_hw_params_set_rate_near",
                                                    detail: "Its nearest rate is 4000 Hz; at least 8000 Hz is needed.")),
        ("AudioError.disconnected", AudioError(.disconnected, device: "hw:0", operation: "snd_pcm_readi", errno: 19)),
        ("AudioError.driverFailure", AudioError(.driverFailure, device: "hw:0", operation: "snd_pcm_readi", errno: 5)),
    ]

    static var all: [(String, RecorderError)] {
        var samples: [(String, any RecorderFailure)] = []
        // Settings
        let configuration: [(String, ConfigurationProblem.Issue)] = [
            ("fileMissing", .fileMissing(path: "/etc/recorder/recorder.conf")),
            ("fileUnreadable.EACCES", .fileUnreadable(path: "/etc/recorder/recorder.conf", errno: 13)),
            ("fileUnreadable.EIO", .fileUnreadable(path: "/etc/recorder/recorder.conf", errno: 5)),
            ("fileIsDirectory", .fileIsDirectory(path: "/etc/recorder")),
            ("fileTooLarge", .fileTooLarge(path: "/etc/recorder/recorder.conf")),
            ("lineNotUTF8", .lineNotUTF8),
            ("notKeyValue", .notKeyValue(line: "backend local")),
            ("unclosedQuote", .unclosedQuote(key: "author_name")),
            ("textAfterQuote", .textAfterQuote(key: "author_name", text: "x")),
            ("setTwice", .setTwice(key: "backend", firstLine: 1)),
            ("unknownKey.suggested", .unknownKey(key: "s3.bukket", suggestion: "s3.bucket")),
            ("unknownKey", .unknownKey(key: "zzz.qqq", suggestion: nil)),
            ("badValue.number", .badValue(key: "cache.max_mib", value: "lots", rule: .number(1...16_777_216, integer: true))),
            ("badValue.positive", .badValue(key: "shoot.seconds", value: "0", rule: .positive(600))),
            ("badValue.boolean", .badValue(key: "local.create", value: "maybe", rule: .boolean)),
            ("badValue.choice", .badValue(key: "retention.scope", value: "all", rule: .choice(["own", "store"]))),
            ("badValue.listen", .badValue(key: "kiosk.listen", value: "8080", rule: .listen)),
            ("badValue.frameSize", .badValue(key: "shoot.size", value: "10x10", rule: .frameSize)),
            ("weakToken.notPrintable", .weakToken(key: "kiosk.token", .notPrintable)),
            ("weakToken.tooEasy", .weakToken(key: "kiosk.token", .tooEasy(bits: 40))),
            ("unknownBackend", .unknownBackend("ftp")),
            ("s3Needs", .s3Needs(key: "s3.endpoint")),
            ("badShareTemplate", .badShareTemplate("https://cdn.example.com/")),
            ("badKioskID", .badKioskID("Booth 2", maximumLength: 32)),
            ("store", .store(StorageError(.configuration, .badEndpoint("x"), retryable: false))),
            ("operatorSettingsUnreadable.EACCES", .operatorSettingsUnreadable(path: "/var/lib/recorder/kiosk/operator-settings.json", errno: 13)),
            ("operatorSettingsUnreadable.EIO", .operatorSettingsUnreadable(path: "/var/lib/recorder/kiosk/operator-settings.json", errno: 5)),
            ("operatorSettingsDamaged", .operatorSettingsDamaged(path: "/var/lib/recorder/kiosk/operator-settings.json")),
            ("notAnOperatorKey", .notAnOperatorKey(key: "kiosk.listen")),
        ]
        samples += configuration.map { ("ConfigurationProblem.\($0.0)", ConfigurationProblem("/etc/recorder/recorder.conf:3", $0.1)) }
        samples.append(("ConfigurationProblem.more", ConfigurationProblem("the command line", .setTwice(key: "backend", firstLine: 1), more: 2)))
        let text: [(String, TextProblem)] = [
            ("caption.notUTF8", TextProblem(.caption(source: nil), .notUTF8)),
            ("caption.file.notUTF8", TextProblem(.caption(source: "/tmp/caption.txt"), .notUTF8)),
            ("caption.controlCharacter", TextProblem(.caption(source: nil), .controlCharacter(0, line: nil))),
            ("caption.tooLong", TextProblem(.caption(source: nil), .tooLong(count: 2201, limit: 2200, line: nil))),
            ("consent.tooLong", TextProblem(.consent, .tooLong(count: 900, limit: 800, line: nil))),
            ("consent.empty", TextProblem(.consent, .empty)),
            ("prompts.controlCharacter", TextProblem(.prompts(origin: "kiosk.prompts = /etc/recorder/prompts.txt"), .controlCharacter(7, line: 2))),
            ("prompts.tooLong", TextProblem(.prompts(origin: "kiosk.prompts = /etc/recorder/prompts.txt"), .tooLong(count: 140, limit: 120, line: 3))),
            ("prompts.empty", TextProblem(.prompts(origin: "kiosk.prompts = /etc/recorder/prompts.txt"), .empty)),
            ("prompts.tooMany", TextProblem(.prompts(origin: "kiosk.prompts = /etc/recorder/prompts.txt"), .tooMany(count: 60, limit: 50))),
        ]
        samples += text.map { ("TextProblem.\($0.0)", $0.1) }
        samples += [
            ("InternalFailure.cannotEncode", InternalFailure.cannotEncode(document: .shot, failure: .invalidValue(type: "Double", path: ["audio", "check", "loudestDBFS"]))),
            ("InternalFailure.unexpected", InternalFailure.unexpected("EOF")),
            ("InternalFailure.illegalStateChange", InternalFailure.illegalStateChange("idle -> posting")),
            ("InternalFailure.noOutcome", InternalFailure.noOutcome("the shot's thread")),
        ]
        // Shooting
        let shot: [(String, ShotFailure)] = [
            ("alreadyRecording", .alreadyRecording), ("postingNow", .postingNow), ("recordingNow", .recordingNow),
            ("cameraMissing", .cameraMissing(why: "no camera in /dev/v4l/by-id")),
            ("cameraUnavailable", .cameraUnavailable(camera)),
            ("countdownOutOfRange", .countdownOutOfRange(99)),
            ("workspaceBusy", .workspaceBusy(root: "/run/recorder")),
            ("workspaceNotWritable", .workspaceNotWritable(root: "/run/recorder")),
            ("secondsNotPositive", .secondsNotPositive(0)), ("secondsOverLimit", .secondsOverLimit(9000)),
            ("sizeOutOfRange", .sizeOutOfRange(FrameSize(width: 8, height: 8))),
            ("frameRateOutOfRange", .frameRateOutOfRange(FrameRate(500))),
            ("unknownPreset", .unknownPreset("quick", known: ["ultrafast", "veryfast", "medium"])),
            ("crfOutOfRange", .crfOutOfRange(60)), ("bitrateOutOfRange", .bitrateOutOfRange(0)),
            ("overlayMissing", .overlayMissing(path: "/srv/frame.png", origin: "the command line")),
            ("overlayIsDirectory", .overlayIsDirectory(path: "/srv", origin: "/etc/recorder/recorder.conf:4")),
            ("overlayUnusable", .overlayUnusable(path: "/srv/frame.png", origin: "the command line", media)),
            ("boomerangSecondsOutOfRange", .boomerangSecondsOutOfRange(5)),
            ("effectSoundMissing", .effectSoundMissing(path: "/srv/whoosh.wav", origin: "/etc/recorder/recorder.conf:9")),
            ("notEnoughSpace", .notEnoughSpace(root: "/run/recorder", needed: 90_000_000, free: 10_000_000, seconds: 15)),
            ("stoppedBeforeFirstFrame", .stoppedBeforeFirstFrame),
            ("stoppedUnderMinimum", .stoppedUnderMinimum(recorded: 0.4, minimum: 1)),
            ("inputEndedBeforeFirstFrame", .inputEndedBeforeFirstFrame(source: "y4m:/tmp/empty.y4m")),
            ("diskFullBeforeFirstSecond", .diskFullBeforeFirstSecond(root: "/run/recorder")),
            ("diskFullUnderMinimum", .diskFullUnderMinimum(root: "/run/recorder", recorded: 0.6, minimum: 1)),
            ("diskFullKeptPart", .diskFullKeptPart(root: "/run/recorder", recorded: 7.5, asked: 15, free: 4096)),
            ("notCurrentShot", .notCurrentShot(id: "20261127-041200-ab12")),
            ("cannotDeleteKept", .cannotDeleteKept(directory: "/run/recorder/kept/x", detail: "Permission denied")),
        ]
        samples += shot.map { ("ShotFailure.\($0.0)", $0.1) }
        // Publishing
        let post: [(String, PostFailure)] = [
            ("shotUnreadable", .shotUnreadable(id: "s1", problem: .unreadable(path: "/var/lib/recorder/shots/s1/shot.json"))),
            ("noSuchShot", .noSuchShot(id: "s9", workspace: "/run/recorder", known: ["s1", "s2"])),
            ("noSuchShot.none", .noSuchShot(id: "s9", workspace: "/run/recorder", known: [])),
            ("currentShotUnreadable", .currentShotUnreadable(id: "s1", problem: .damaged(path: "/var/lib/recorder/shots/s1/shot.json", parser: "dataCorrupted: not valid JSON"))),
            ("noFinishedShot", .noFinishedShot(workspace: "/run/recorder")),
            ("videoMissing", .videoMissing(path: "/run/recorder/s1/video.mp4")),
            ("consentTextChanged", .consentTextChanged(shot: "s1", path: "/run/recorder/s1/consent.txt", sha256: "ab12")),
            ("alreadyPosted.uploaded", .alreadyPosted(id: "AbCdEfGh12", whereItIs: .uploaded(at: "2026-11-27T04:12:00Z", video: "file:///srv/store/videos/AbCdEfGh12.mp4", metadata: "file:///srv/store/posts/AbCdEfGh12.json"))),
            ("alreadyPosted.queued", .alreadyPosted(id: "AbCdEfGh12", whereItIs: .queued(directory: "/var/lib/recorder/outbox/queue/x"))),
            ("alreadyPosted.unknown", .alreadyPosted(id: "AbCdEfGh12", whereItIs: .unknown)),
            ("postingElsewhere", .postingElsewhere(workspace: "/run/recorder")),
            ("storeMissing", .storeMissing(path: "/srv/stroe")),
            ("storeNotReady", .storeNotReady(StorageError(.local(errno: 20), .notADirectory(root: "/srv/store"), retryable: false,
                                                                        advice: [SettingAdvice(.storeDirectory, "DIRECTORY", "with a directory")]))),
            ("cannotCopyVideo", .cannotCopyVideo(store)),
            ("cannotQueueConsentText", .cannotQueueConsentText(store)),
            ("queuedUnreadable", .queuedUnreadable(path: "/var/lib/recorder/outbox/queue/x")),
            ("outboxBusy", .outboxBusy(root: "/var/lib/recorder/outbox")),
            ("notQueued", .notQueued(id: "AbCdEfGh12", outbox: "/var/lib/recorder/outbox", queued: ["ZyXwVu9876"])),
            ("notUploaded", .notUploaded(id: "AbCdEfGh12", queuedIn: "/var/lib/recorder/outbox/queue/x", store)),
            ("stillQueued", .stillQueued(id: "AbCdEfGh12", queuedIn: "/var/lib/recorder/outbox/queue/x", attempts: 5, store)),
            ("stillQueued.storeAway", .stillQueued(id: "AbCdEfGh12", queuedIn: "/var/lib/recorder/outbox/queue/x", attempts: 3,
                                                   StorageError(.local(errno: 2), .storeMissing(root: "/media/usb/clips"), retryable: false))),
            ("metadataNotJSON", .metadataNotJSON(detail: "unexpected end of file")),
        ]
        samples += post.map { ("PostFailure.\($0.0)", $0.1) }
        let bookend: [(String, BookendFailure)] = [
            ("stillSecondsOutOfRange", .stillSecondsOutOfRange(60)),
            ("missing", .missing(.intro, path: "/srv/intro.png")),
            ("unreadable", .unreadable(.outro, path: "/srv/outro.mp4")),
            ("notThePicture", .notThePicture(.intro, path: "/srv/intro.png", png: true)),
            ("notAVideo", .notAVideo(.outro, path: "/srv/outro.mp4", media)),
            ("noPictures", .noPictures(.outro, path: "/srv/outro.mp4")),
            ("tooLong", .tooLong(.intro, path: "/srv/intro.mp4", seconds: 40, limit: 30)),
            ("unknownType", .unknownType(.intro, path: "/srv/intro.gif", extension: "gif")),
            ("cannotMakeScratch", .cannotMakeScratch(path: "/run/recorder/.join", errno: 28)),
            ("cannotJoin", .cannotJoin(roles: [.intro, .outro], shot: "s1", media)),
            ("cannotKeepJoined", .cannotKeepJoined(path: "/run/recorder/s1/joined.mp4", store)),
            ("joinedUnreadable", .joinedUnreadable(path: "/run/recorder/s1/joined.mp4", media)),
        ]
        samples += bookend.map { ("BookendFailure.\($0.0)", $0.1) }
        let feed: [(String, FeedFailure)] = [
            ("pageOutOfRange", .pageOutOfRange(0)), ("pageSizeOutOfRange", .pageSizeOutOfRange(500, maximum: 100)),
            ("notAPostID", .notAPostID("../x")), ("cannotList", .cannotList(store)),
            ("cannotRead", .cannotRead(id: "AbCdEfGh12", store)),
            ("notInStore", .notInStore(id: "AbCdEfGh12", store: "/srv/store")),
            ("metadataDamaged", .metadataDamaged(id: "AbCdEfGh12", key: "posts/AbCdEfGh12.json")),
            ("cannotHide", .cannotHide(id: "AbCdEfGh12", store)), ("cannotShow", .cannotShow(id: "AbCdEfGh12", store)),
            ("cannotDelete", .cannotDelete(id: "AbCdEfGh12", partly: false, store)),
            ("cannotDelete.partly", .cannotDelete(id: "AbCdEfGh12", partly: true, store)),
            ("nothingToDelete", .nothingToDelete(id: "AbCdEfGh12", store: "/srv/store")),
            ("cannotStorePoster", .cannotStorePoster(id: "AbCdEfGh12", store)),
            ("cannotReadPoster", .cannotReadPoster(id: "AbCdEfGh12", store)),
            ("noTemporaryFile", .noTemporaryFile(id: "AbCdEfGh12", directory: "/var/cache/recorder", errno: 28)),
            ("cannotDownloadVideo", .cannotDownloadVideo(id: "AbCdEfGh12", store)),
            ("videoNotInStore", .videoNotInStore(id: "AbCdEfGh12")), ("videoMismatch", .videoMismatch(id: "AbCdEfGh12")),
            ("noPicture", .noPicture(id: "AbCdEfGh12", media)),
            ("unreadableEntry", .unreadableEntry(id: "AbCdEfGh12", problem: .metadataNotAPost)),
            ("unreadableEntry.unknown", .unreadableEntry(id: "AbCdEfGh12", problem: nil)),
        ]
        samples += feed.map { ("FeedFailure.\($0.0)", $0.1) }
        // Library
        let cache: [(String, CacheFailure)] = [
            ("unusable", .unusable(directory: "/var/cache/recorder", store)),
            ("cannotCopy", .cannotCopy(to: "/tmp/out.mp4", store)),
            ("cannotFetch", .cannotFetch(id: "AbCdEfGh12", store)),
            ("videoNotInStore", .videoNotInStore(id: "AbCdEfGh12", key: "videos/AbCdEfGh12.mp4", store: "/srv/store")),
            ("mismatch", .mismatch(id: "AbCdEfGh12", size: 10, sha256: "aa", expectedSize: 11, expectedSHA256: "bb")),
        ]
        samples += cache.map { ("CacheFailure.\($0.0)", $0.1) }
        let export: [(String, ExportFailure)] = [
            ("archiveExists", .archiveExists(path: "/tmp/event.zip")), ("targetIsFile", .targetIsFile(path: "/tmp/event")),
            ("directoryNotEmpty", .directoryNotEmpty(path: "/tmp/event")),
            ("cannotMake", .cannotMake(partial: "/tmp/event.partial-1", store)),
            ("cannotWrite", .cannotWrite(id: "AbCdEfGh12", partial: "/tmp/event.partial-1", store)),
            ("cannotFinish", .cannotFinish(target: "/tmp/event", store)),
            ("cannotRead", .cannotRead(id: "AbCdEfGh12", store)),
            ("consentTextMissing", .consentTextMissing(id: "AbCdEfGh12", key: "consent/ab12.txt", sha256: "ab12")),
            ("nothingToExport", .nothingToExport(since: "2026-11-27T00:00:00Z", store: "/var/lib/recorder/store", skipped: [:])),
        ]
        samples += export.map { ("ExportFailure.\($0.0)", $0.1) }
        let reel: [(String, ReelFailure)] = [
            ("targetExists", .targetExists(path: "/tmp/reel.mp4")), ("loudnessOutOfRange", .loudnessOutOfRange(-90)),
            ("cardSecondsOutOfRange", .cardSecondsOutOfRange(60)), ("fadeOutOfRange", .fadeOutOfRange(9)),
            ("unreadableVideo", .unreadableVideo(media)),
            ("nothingToShow", .nothingToShow(since: "2026-11-27T00:00:00Z", prompt: nil, store: "/var/lib/recorder/store", skipped: [:])),
            ("nothingToShow.prompt", .nothingToShow(since: "2026-11-27T00:00:00Z", prompt: "Your wish?", store: "/var/lib/recorder/store",
                                                     skipped: ["AbCdEfGh12": .feed(.videoMismatch(id: "AbCdEfGh12"))])),
            ("cannotMakeScratch", .cannotMakeScratch(path: "/tmp/.reel", errno: 28)),
            ("cannotPlace", .cannotPlace(target: "/tmp/reel.mp4", store)),
            ("cannotAdd", .cannotAdd(id: "AbCdEfGh12", .media(media))),
            ("cannotMakeDirectory", .cannotMakeDirectory(path: "/var/cache/recorder/reels", detail: "Permission denied")),
        ]
        samples += reel.map { ("ReelFailure.\($0.0)", $0.1) }
        let gallery: [(String, GalleryFailure)] = [
            ("badEventName", .badEventName("", limit: 100)), ("emptyWindow", .emptyWindow(since: "2026-11-28T00:00:00Z", until: "2026-11-27T00:00:00Z")),
            ("expiresOutOfRange", .expiresOutOfRange(0, limit: 3650)), ("badKioskID", .badKioskID("booth one")),
            ("noSuchGallery", .noSuchGallery(token: "AbCdEfGh12AbCdEfGh12Ab", store: "s3://clips")),
            ("cannotRead", .cannotRead(store)), ("cannotWrite", .cannotWrite(store)),
            ("reelUnreadable", .reelUnreadable(path: "/tmp/reel.mp4", errno: 2)), ("postChanged", .postChanged(id: "AbCdEfGh12")),
            ("cannotWriteCard", .cannotWriteCard(path: "/tmp/card.pdf", errno: 17)), ("noShareBase", .noShareBase),
            ("linkTooLong", .linkTooLong("https://videos.example.org/g/AbCdEfGh12AbCdEfGh12Ab")),
        ]
        samples += gallery.map { ("GalleryFailure.\($0.0)", $0.1) }
        let serve: [(String, ServeFailure)] = [
            ("addressInUse", .addressInUse(address: "127.0.0.1:8090", port: 8090)), ("notAnAddressHere", .notAnAddressHere(host: "192.0.2.7")),
            ("privilegedPort", .privilegedPort(host: "0.0.0.0", port: 80)),
            ("serverStopped", .serverStopped(reason: "Too many open files", address: "127.0.0.1:8090")),
            ("fleetTokenEmpty", .fleetTokenEmpty(path: "/etc/recorder/fleet-token", origin: "/etc/recorder/recorder.conf:12")),
        ]
        samples += serve.map { ("ServeFailure.\($0.0)", $0.1) }
        // KioskService
        let kiosk: [(String, KioskProblem)] = [
            ("hookNotExecutable", .hookNotExecutable(path: "/srv/hook", origin: "/etc/recorder/recorder.conf:9")),
            ("triggerNotAPath", .triggerNotAPath("usb", origin: "/etc/recorder/recorder.conf:9")),
            ("triggerWithoutWords", .triggerWithoutWords(origin: "/etc/recorder/recorder.conf:9")),
            ("sameTokens", .sameTokens), ("boothTokenWithoutOperatorToken", .boothTokenWithoutOperatorToken),
            ("exposedWithoutToken", .exposedWithoutToken(listen: "0.0.0.0:8080")),
            ("tokenFileShared", .tokenFileShared(role: "operator", path: "/etc/recorder/token", mode: 0o644)),
            ("tokenFileUnreadable", .tokenFileUnreadable(role: "booth", path: "/etc/recorder/booth-token")),
            ("weakToken", .weakToken(role: "operator", origin: "/etc/recorder/token", .tooEasy(bits: 40))),
            ("proxySocketNotAbsolute", .proxySocketNotAbsolute(path: "run/recorder.sock", origin: "the command line")),
            ("proxySocketTooLong", .proxySocketTooLong(path: "/run/" + String(repeating: "x", count: 110), origin: "the command line", bytes: 115)),
            ("guestTextNotAbsolute", .guestTextNotAbsolute(key: "kiosk.consent", value: "consent.txt", origin: "the command line")),
            ("guestTextUnreadable", .guestTextUnreadable(key: "kiosk.prompts", path: "/srv/prompts.txt", origin: "the command line", exists: false)),
            ("guestTextUnreadable.exists", .guestTextUnreadable(key: "kiosk.prompts", path: "/srv/prompts.txt", origin: "the command line", exists: true)),
            ("guestTextTooLarge", .guestTextTooLarge(key: "kiosk.consent", path: "/srv/consent.txt", origin: "the command line", bytes: 2_000_000)),
            ("guestTextRefused", .guestTextRefused(key: "kiosk.consent", path: "/srv/consent.txt", origin: "the command line",
                                                   RecorderError(TextProblem(.consent, .empty)))),
            ("wifi", .wifi(.passwordLength(5), name: "Booth", origin: "/etc/recorder/recorder.conf:12")),
            ("wifiNeedsSharePage", .wifiNeedsSharePage(name: "Booth", base: "https://cdn.example.com/{key}", origin: "/etc/recorder/recorder.conf:12")),
            ("proxySocketFailed", .proxySocketFailed(path: "/run/recorder.sock", reason: "Permission denied")),
            ("addressInUse", .addressInUse(address: "127.0.0.1:8080", port: 8080)),
            ("notAnAddressHere", .notAnAddressHere(host: "10.9.9.9")),
            ("privilegedPort", .privilegedPort(host: "0.0.0.0", port: 80)),
            ("serverStopped", .serverStopped(reason: "EOF", address: "127.0.0.1:8080")),
            ("restartFailed", .restartFailed(errno: 2)),
            ("mailSettings", .mailSettings(.fromMissing, origins: ["mail.smtp_url": "operator page, 2026-11-29 14:02"])),
            ("hidden", .hidden(id: "AbCdEfGh12")), ("noPoster", .noPoster(id: "AbCdEfGh12")),
            ("noTokenFor", .noTokenFor(role: "booth")), ("noTokens", .noTokens),
        ]
        samples += kiosk.map { ("KioskProblem.\($0.0)", $0.1) }
        var all = samples.map { ($0.0, $0.1.wrapped) }
        all += [("CaptureError.disconnected", camera), ("AudioError.noSuchDevice", microphone)]
        all += cameras.map { ($0.0, RecorderError($0.1)) } + microphones.map { ($0.0, RecorderError($0.1)) }
        all += [("MediaError.badInput", .media(media)), ("MediaError.diskFull", .media(diskFull)), ("StorageError.local", .storage(store))]
        all += medias.map { ($0.0, .media($0.1)) }
        all += storeRefusals.map { ($0.0, .storage($0.1)) }
        return all
    }

    /// The cases a `--json` document carries beside a failure, as it gives them: a guest's mail's
    /// (`outbox mail --json`'s `failure`), a feed entry's `problem`, a cached copy's `replaced`.
    static var documented: [(String, CaseData)] {
        let reply = SMTPReply(code: 550, text: "5.1.1 No such user", step: .recipient)
        let mail: [(String, MailFailure)] = [
            ("settings", .smtp(.settings(.url("http://mail.example.com", .scheme)))),
            ("hostNotFound", .smtp(.hostNotFound(host: "mail.example.com"))),
            ("cannotConnect", .smtp(.cannotConnect(host: "mail.example.com", port: 587, errno: 111))),
            ("startTLSNotOffered", .smtp(.startTLSNotOffered)),
            ("tlsFailed", .smtp(.tlsFailed(curlCode: 60, detail: "self-signed certificate"))),
            ("noUsableAuthentication", .smtp(.noUsableAuthentication)),
            ("temporaryRefusal", .smtp(.temporaryRefusal(SMTPReply(code: 451, text: "4.7.1 Greylisted", step: .recipient)))),
            ("permanentRefusal", .smtp(.permanentRefusal(reply))),
            ("connectionLost", .smtp(.connectionLost(during: .data, curlCode: 56))),
            ("cancelled", .smtp(.cancelled(during: .mailFrom))),
            ("unreadableMessage", .smtp(.unreadableMessage(errno: 5))),
            ("libcurl", .smtp(.libcurl(code: 43, detail: "bad function argument"))),
            ("noLink", .noLink),
            ("file", .file(operation: "rename", path: "/var/lib/recorder/outbox/mail/x.json", errno: 28)),
        ]
        let problems: [(String, FeedEntry.Problem)] = [
            ("metadataMissing", .metadataMissing(key: "posts/AbCdEfGh12.json")), ("metadataTooLarge", .metadataTooLarge(limit: 65536)),
            ("metadataNotAPost", .metadataNotAPost), ("metadataNamesAnotherPost", .metadataNamesAnotherPost(id: "ZyXwVu9876")),
        ]
        let replaced: [(String, VideoCache.Replaced)] = [
            ("wrongSize", .wrongSize(id: "AbCdEfGh12", size: 10, expected: 11)), ("wrongChecksum", .wrongChecksum(id: "AbCdEfGh12")),
        ]
        return mail.map { ("MailFailure.\($0.0)", CaseData(encoding: $0.1)) }
            + problems.map { ("FeedEntry.Problem.\($0.0)", CaseData(encoding: $0.1)) }
            + replaced.map { ("VideoCache.Replaced.\($0.0)", CaseData(encoding: $0.1)) }
    }

    /// The command line's own cases (the operator never sees them).
    static var commandLine: [(String, RecorderError)] {
        let cli: [(String, CLIFailure)] = [
            ("cachedVideoUnreadable", .cachedVideoUnreadable(path: "/var/cache/recorder/x.mp4", errno: 13)),
            ("standardOutputClosed", .standardOutputClosed(errno: 32)),
            ("leftOutOfReel", .leftOutOfReel(["AbCdEfGh12": .feed(.videoMismatch(id: "AbCdEfGh12"))])),
            ("leftOutOfExport", .leftOutOfExport(["AbCdEfGh12": .feed(.videoMismatch(id: "AbCdEfGh12"))])),
            ("noMicrophone", .noMicrophone(problem: nil)),
            ("noMicrophoneListened", .noMicrophoneListened(["hw:CARD=A,DEV=0": "busy"])),
            ("stillQueued", .stillQueued(.storage(store), count: 2)),
            ("purgeNeedsRetention", .purgeNeedsRetention), ("clockInDoubt", .clockInDoubt(.notSynchronised)),
            ("purgeIncomplete", .purgeIncomplete(count: 2, id: "AbCdEfGh12", .storage(store))),
            ("captionFileUnreadable", .captionFileUnreadable(path: "/tmp/caption.txt", errno: 2)),
            ("captionInputUnreadable", .captionInputUnreadable(errno: 9)),
            ("captionTooLong", .captionTooLong(source: "/tmp/caption.txt", limit: 2200)),
            ("captionReadFailed", .captionReadFailed(source: "standard input", errno: 5)),
            ("postQueued", .postQueued(.storage(store), id: "AbCdEfGh12", directory: "/var/lib/recorder/outbox/queue/x")),
            ("uploadStopped", .uploadStopped(id: "AbCdEfGh12")),
            ("shotKept", .shotKept(camera)),
            ("noPosts", .noPosts(store: "/root/.local/share/recorder/store")),
            ("exporterCannotListen", .exporterCannotListen(address: "127.0.0.1:9478", reason: "Address already in use", inUse: true)),
            ("exporterCannotListen.notHere", .exporterCannotListen(address: "10.9.9.9:9478", reason: "Cannot assign requested address", inUse: false)),
        ]
        let disk = FileSystem.Failure("rename", "/var/lib/recorder/outbox/mail/x.json", Descriptors.Errno(28))
        let greylisted = MailFailure.smtp(.temporaryRefusal(SMTPReply(code: 451, text: "4.7.1 Greylisted", step: .recipient)))
        let mail: [(String, CLIMailFailure)] = [
            ("settings", .settings(.fromMissing, origins: ["mail.smtp_url": "/etc/recorder/recorder.conf:7"])),
            ("noMailServer", .noMailServer), ("noLinkToSend", .noLinkToSend), ("badAddress", .badAddress(.atSigns(count: 2))),
            ("cannotQueue", .cannotQueue(disk)), ("queueUnusable", .queueUnusable(root: "/var/lib/recorder/outbox/mail", disk)),
            ("cannotRetry", .cannotRetry(id: "Mx4aQ2bC9d", disk)),
            ("noRefusedMail", .noRefusedMail(id: "Mx4aQ2bC9d", queue: "/var/lib/recorder/outbox/mail", refused: [])),
            ("mailsWaiting", .mailsWaiting(count: 2, next: "2026-11-29T10:15:00Z")),
            ("mailQueued", .mailQueued(post: "AbCdEfGh12", mail: "Mx4aQ2bC9d", next: "2026-11-27T12:00:00Z", greylisted)),
            ("mailRefused", .mailRefused(post: "AbCdEfGh12", mail: "Mx4aQ2bC9d", .smtp(.permanentRefusal(SMTPReply(code: 550, text: "5.1.1 No such user", step: .recipient))))),
        ]
        return cli.map { ("CLIFailure.\($0.0)", RecorderError($0.1)) } + mail.map { ("CLIMailFailure.\($0.0)", RecorderError($0.1)) }
    }
}
