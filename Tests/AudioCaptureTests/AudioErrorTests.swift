import AudioCapture
import SystemSupport
import Testing

/// Every message names the problem and what to do about the device; the settings that help are
/// advice, which the CLI and the kiosk spell their own way (no flag in the message).
@Suite struct AudioErrorTests {
    @Test func noSuchDeviceListsTheMicrophonesAndTheWayOut() {
        let gone = AudioError(.noSuchDevice(available: ["hw:CARD=C920,DEV=0", "hw:CARD=Loopback,DEV=1"]),
                              device: "hw:CARD=Gone,DEV=0", operation: "snd_pcm_open", errno: 19)
        let message = gone.description
        #expect(message.contains("no such microphone: hw:CARD=Gone,DEV=0"))
        #expect(message.contains("hw:CARD=C920,DEV=0, hw:CARD=Loopback,DEV=1"))
        // Where the machine's list is, is each edge's to say (the CLI: `recorder devices`).
        #expect(gone.listingHelps && !message.contains("--") && !message.contains("recorder devices"), "\(message)")
        let error = AudioError(.noSuchDevice(available: []), device: "default", operation: "snd_pcm_open", errno: 2)
        #expect(error.description.contains("no microphone") && !error.description.contains("--"), "\(error)")
        // The way out is advice the edges spell: with no microphone at all, only "none".
        #expect(error.advice == [SettingAdvice(.microphone, "none", "to record without sound")])
    }

    @Test func busyNamesTheHolder() {
        let message = AudioError(.busy(holders: "4242 (arecord)"), device: "hw:CARD=C920,DEV=0",
                                 operation: "snd_pcm_open", errno: 16).description
        #expect(message.contains("busy") && message.contains("held by 4242 (arecord)"))
        #expect(message.contains("fuser"))
    }

    @Test func permissionNamesTheGroupToJoin() {
        let message = AudioError(.permissionDenied(group: "audio"), device: "hw:0", operation: "snd_pcm_open", errno: 13).description
        #expect(message.contains("permission denied") && message.contains("usermod -aG audio"))
        #expect(message.contains("SupplementaryGroups=audio"))
    }

    @Test func formatAndDisconnectNameTheirFix() {
        let format = AudioError(.unsupportedFormat, device: "hw:0", operation: "snd_pcm_hw_params_set_rate_near",
                                detail: "Its nearest rate is 4000 Hz; at least 8000 Hz is needed.").description
        #expect(format.contains("4000 Hz") && format.contains("plughw:"))
        let lost = AudioError(.disconnected, device: "hw:0", operation: "snd_pcm_readi", errno: 19)
        #expect(lost.description.contains("unplugged") && lost.listingHelps)
    }

    @Test func openErrorsAreClassifiedByErrno() {
        // This host's /dev/snd decides what the holders and groups are; the kinds do not depend on it.
        func kind(_ errno: Int32) -> AudioFailure { AudioError.fromOpen(errno: errno, device: "hw:CARD=X,DEV=0").kind }
        if case .noSuchDevice = kind(2) {} else { Issue.record("ENOENT: \(kind(2))") }
        if case .noSuchDevice = kind(19) {} else { Issue.record("ENODEV: \(kind(19))") }
        if case .busy = kind(16) {} else { Issue.record("EBUSY: \(kind(16))") }
        if case .permissionDenied = kind(13) {} else { Issue.record("EACCES: \(kind(13))") }
        #expect(kind(5) == .driverFailure)
        let error = AudioError.fromOpen(errno: 16, device: "hw:CARD=X,DEV=0")
        #expect(error.operation == "snd_pcm_open" && error.errno == 16)
    }
}
