import AudioCapture
import SystemSupport
import Testing
import MediaValues

/// Each failure's kind carries what its words name (the microphones there are, the holder, the
/// group to join), and the settings that help are advice, which the CLI and the kiosk spell their
/// own way. The words themselves, for every kind, are the edges' snapshots (`EdgeWordsTests`,
/// samples `AudioError.*`), which also hold that no flag or `recorder` command reaches the operator.
@Suite struct AudioErrorTests {
    @Test func noSuchDeviceListsTheMicrophonesAndTheWayOut() {
        // (which microphones this host has is its own: the kind lists them, whatever they are)
        let gone = AudioError.fromOpen(errno: 19, device: "hw:CARD=Gone,DEV=0")
        #expect(gone.device == "hw:CARD=Gone,DEV=0" && gone.operation == "snd_pcm_open" && gone.errno == 19)
        guard case .noSuchDevice(let available) = gone.kind else { Issue.record("\(gone.kind)"); return }
        #expect(!available.contains(gone.device), "\(available)")
        // Where the machine's list is, is each edge's to say (the CLI: `recorder devices`).
        #expect(gone.listingHelps)
        // With microphones: one of them, or none; with no microphone at all, only "none".
        let some = AudioError(.noSuchDevice(available: ["hw:CARD=C920,DEV=0", "hw:CARD=Loopback,DEV=1"]), device: "hw:CARD=Gone,DEV=0", operation: "snd_pcm_open", errno: 19)
        #expect(some.advice == [SettingAdvice(.microphone, "DEVICE", "with one of them"), SettingAdvice(.microphone, "none", "to record without sound")])
        let error = AudioError(.noSuchDevice(available: []), device: "default", operation: "snd_pcm_open", errno: 2)
        #expect(error.advice == [SettingAdvice(.microphone, "none", "to record without sound")])
    }

    @Test func busyPermissionFormatAndDisconnectAdviseTheirWayOut() {
        let busy = AudioError(.busy(holders: "4242 (arecord)"), device: "hw:CARD=C920,DEV=0", operation: "snd_pcm_open", errno: 16)
        #expect(busy.kind == .busy(holders: "4242 (arecord)") && !busy.listingHelps)
        #expect(busy.advice == [SettingAdvice(.microphone, "none", "to record without sound")])
        // Joining the group is the fix; recording without sound would hide it.
        let denied = AudioError(.permissionDenied(group: "audio"), device: "hw:0", operation: "snd_pcm_open", errno: 13)
        #expect(denied.advice.isEmpty && !denied.listingHelps)
        let format = AudioError(.unsupportedFormat, device: "hw:0", operation: "snd_pcm_hw_params_set_rate_near",
                                detail: "Its nearest rate is 4000 Hz; at least 8000 Hz is needed.")
        #expect(format.detail == "Its nearest rate is 4000 Hz; at least 8000 Hz is needed." && !format.listingHelps)
        let lost = AudioError(.disconnected, device: "hw:0", operation: "snd_pcm_readi", errno: 19)
        #expect(lost.listingHelps && lost.advice == [SettingAdvice(.microphone, "none", "to record without sound")])
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
