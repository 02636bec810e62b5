import ArgumentParser
import AudioCapture
import Settings
@testable import RecorderCLI
import SystemSupport
import Testing
import VideoCapture
import MediaValues
import Failures

/// The command line spells the lower layers' advice as its own flags (issue 18, issue 28: the
/// spelling lives at the edge, not in SystemSupport).
@Suite struct AdviceFlagTests {
    @Test func theCommandLineSpellsAdviceAsFlags() {
        let format = RecorderError(CaptureError(.unsupportedFormat, device: "/dev/video0", operation: "negotiate",
                                                detail: "the camera does not offer the format nv12. It offers: YUYV."))
        let flagged = CLIWords.text(format)
        #expect(flagged.hasSuffix(" Or use `--format auto` to let recorder choose."), "\(flagged)")
        let mic = RecorderError(AudioError(.noSuchDevice(available: ["hw:CARD=A,DEV=0"]), device: "hw:CARD=B,DEV=0", operation: "snd_pcm_open"))
        #expect(CLIWords.text(mic).hasSuffix("Or use `--audio DEVICE` with one of them, or use `--audio none` to record without sound."),
                "\(CLIWords.text(mic))")
        // A switch takes no value on the command line.
        #expect(SettingAdvice(.createStoreDirectory, "true", "to have recorder create it").spelledAsFlag == "use `--create` to have recorder create it")
    }

    @Test func everyAdvisedFlagIsOneTheCommandsTake() throws {
        // A value each flag takes (the advice's own is often a placeholder such as DEVICE).
        let sample: [SettingAdvice.Setting: String] = [.camera: "testsrc", .pixelFormat: "yuyv", .size: "640x480", .frameRate: "30",
                                                       .microphone: "none", .workspace: "/tmp/ws", .storeDirectory: "/tmp/store"]
        for setting in SettingAdvice.Setting.allCases {
            let value = setting.isSwitch ? [] : [sample[setting] ?? "missing sample for \(setting)"]
            switch setting {
            case .storeDirectory, .createStoreDirectory:
                _ = try PostCommand.parse([setting.flag] + value + ["--caption", ""])
            default:
                _ = try ShootCommand.parse([setting.flag] + value)
            }
        }
    }
}
