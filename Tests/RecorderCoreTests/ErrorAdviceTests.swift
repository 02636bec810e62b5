import AudioCapture
import MediaEncoder
import Settings
import StorageUpload
import SystemSupport
import Testing
import VideoCapture

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
            + mediaKinds.map { RecorderError(MediaError($0, operation: "avio_open", code: -28, path: "/ws/video.mp4", detail: "No space.")) }
    }

    @Test func lowerLayersNameNoFlag() {
        for error in Self.lowerLayerErrors {
            #expect(!error.message.contains("--"), "\(error.message)")
            #expect(!error.text().contains("--"), "\(error.text())")
        }
        // The local store's messages too (its advice names the directory setting).
        let store = LocalDirectoryBackend(root: "/nonexistent/recorder-store", createsRoot: false)
        do {
            try store.prepare()
            Issue.record("a missing store directory was taken")
        } catch {
            #expect(!error.message.contains("--"), "\(error.message)")
            #expect(RecorderError(error).advice.map(\.setting) == [.createStoreDirectory])
            #expect(RecorderError(error).text().contains("`local.create = true`"))
        }
    }

    @Test func eachEdgeSpellsTheAdvice() {
        let format = RecorderError(CaptureError(.unsupportedFormat, device: "/dev/video0", operation: "negotiate",
                                                detail: "the camera does not offer the format nv12. It offers: YUYV."))
        #expect(format.text().hasSuffix(" Or set `shoot.format = auto` to let recorder choose."), "\(format.text())")
        let mic = RecorderError(AudioError(.noSuchDevice(available: ["hw:CARD=A,DEV=0"]), device: "hw:CARD=B,DEV=0", operation: "snd_pcm_open"))
        #expect(mic.text().hasSuffix("Or set `audio.device = DEVICE` with one of them, or set `audio.device = none` to record without sound."),
                "\(mic.text())")
        #expect(mic.kind == .notFound)
        // A failure told again keeps its cause and advice.
        let retold = mic.retold("the shot was kept, but \(mic.message)")
        #expect(retold.advice == mic.advice && retold.kind == .notFound)
        if case .audio = retold.cause {} else { Issue.record("the cause was lost: \(String(describing: retold.cause))") }
        // Where nothing in the settings helps, there is no advice sentence.
        let busy = RecorderError(CaptureError(.busy, device: "/dev/video0", operation: "open", errno: 16))
        #expect(busy.text() == busy.message)
    }

    @Test func everySettingAdvisedIsADeclaredKey() {
        for setting in SettingAdvice.Setting.allCases {
            #expect(SettingsCatalogue.core[setting.key] != nil, "\(setting) advises \(setting.key), which no module declares")
        }
    }
}
