import AudioCapture
import MediaEncoder
import Publishing
import Settings
import Shooting
import StorageUpload
import SystemSupport
import Testing
import VideoCapture
import MediaValues
import StoreValues
import Failures

/// Lower layers say what happened; the settings that help are advice, spelled by each edge: flags
/// on the command line, configuration keys in the kiosk (issue 18: no CLI flag reaches a kiosk).
@Suite struct ErrorAdviceTests {
    static let captureKinds: [CaptureFailure] = [.noSuchDevice, .notACaptureDevice, .permissionDenied(group: "video"), .busy,
                                                    .disconnected, .stalled(seconds: 5), .unsupportedFormat, .badInput, .driverFailure]
    static let audioKinds: [AudioFailure] = [.noSuchDevice(available: ["hw:CARD=A,DEV=0"]), .noSuchDevice(available: []),
                                                .permissionDenied(group: "audio"), .busy(holders: "7 (arecord)"),
                                                .disconnected, .unsupportedFormat, .driverFailure]
    static let mediaKinds: [MediaError.Kind] = [.diskFull, .permissionDenied, .missingCodec, .badInput, .failed]

    /// Every lower-layer message, of every kind.
    static var lowerLayerErrors: [RecorderError] {
        captureKinds.map { RecorderError(CaptureError($0, device: "/dev/video0", operation: "VIDIOC_STREAMON", errno: 5, detail: "detail.")) }
            + audioKinds.map { RecorderError(AudioError($0, device: "hw:CARD=A,DEV=0", operation: "snd_pcm_open", errno: 5)) }
            + mediaKinds.map { RecorderError(MediaError($0, .call(function: "avio_open", message: "No space left on device"), code: -28, path: "/ws/video.mp4")) }
    }

    /// A lower error's own words and its advice spelled as configuration keys (what the kiosk shows).
    static func keyed(_ error: RecorderError) -> String {
        error.description + SettingAdvice.sentence(error.advice, spelledBy: \.spelledAsKey)
    }

    @Test func lowerLayersNameNoFlag() {
        for error in Self.lowerLayerErrors {
            #expect(!Self.keyed(error).contains("--"), "\(Self.keyed(error))")
        }
        // The local store's messages too (its advice names the directory setting).
        let store = LocalDirectoryBackend(root: "/nonexistent/recorder-store", createsRoot: false)
        do {
            try store.prepare()
            Issue.record("a missing store directory was taken")
        } catch {
            // (its words are the edges': `OperatorWords.store`, in the snapshots)
            #expect(error.reason == .storeMissing(root: "/nonexistent/recorder-store"), "\(error)")
            // The store's own error offers nothing: whether to make the directory depends on
            // whether it ever took a post. A refused post (a store never seen) offers it; a post
            // still queued for it (a disk away) does not.
            #expect(RecorderError(error).advice.isEmpty)
            let refused = RecorderError(PostFailure.storeMissing(path: "/nonexistent/recorder-store"))
            // (spelled `local.create = true` for the operator: the edges' snapshots, `PostFailure.storeMissing`)
            #expect(refused.advice.map(\.setting) == [.storeDirectory, .createStoreDirectory] && refused.advice.last?.value == "true")
            let queued = RecorderError(PostFailure.stillQueued(id: "AbCdEfGh12", queuedIn: "/var/lib/recorder/outbox/queue/x", attempts: 3, error))
            #expect(queued.advice.isEmpty)
        }
    }

    @Test func eachEdgeSpellsTheAdvice() {
        let format = RecorderError(CaptureError(.unsupportedFormat, device: "/dev/video0", operation: "negotiate",
                                                detail: "the camera does not offer the format nv12. It offers: YUYV."))
        #expect(Self.keyed(format).hasSuffix(" Or set `shoot.format = auto` to let recorder choose."), "\(Self.keyed(format))")
        let mic = RecorderError(AudioError(.noSuchDevice(available: ["hw:CARD=A,DEV=0"]), device: "hw:CARD=B,DEV=0", operation: "snd_pcm_open"))
        #expect(Self.keyed(mic).hasSuffix("Or set `audio.device = DEVICE` with one of them, or set `audio.device = none` to record without sound."),
                "\(Self.keyed(mic))")
        #expect(mic.kind == .notFound)
        // A failure that tells a lower error keeps its cause and advice.
        let told = RecorderError(ShotFailure.cameraUnavailable(mic))
        #expect(told.advice == mic.advice && told.cause == mic)
        // Where nothing in the settings helps, there is no advice sentence.
        let busy = RecorderError(CaptureError(.busy, device: "/dev/video0", operation: "open", errno: 16))
        #expect(Self.keyed(busy) == busy.description)
    }

    @Test func everySettingAdvisedIsADeclaredKey() {
        for setting in SettingAdvice.Setting.allCases {
            #expect(SettingsCatalogue.core[setting.key] != nil, "\(setting) advises \(setting.key), which no module declares")
        }
    }
}
