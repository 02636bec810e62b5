internal import CAlsa
#if canImport(Glibc)
import Glibc
#endif
import MediaValues
internal import SystemSupport

/// How `AlsaCaptureSource.init` agrees on a format with the device, and names its card.
extension AlsaCaptureSource {
    // MARK: - Negotiation

    struct Negotiated {
        var format: AudioFormat
        var deviceChannels: Int
        var periodFrames: Int
        var bufferFrames: Int
    }

    static func negotiate(_ pcm: OpaquePointer, device: String, channels asked: Int?) throws(AudioError) -> Negotiated {
        func check(_ code: Int32, _ operation: String) throws(AudioError) {
            if code < 0 { throw AudioError.from(errno: -code, device: device, operation: operation) }
        }
        func unsupported(_ operation: String, _ detail: String) -> AudioError {
            AudioError(.unsupportedFormat, device: device, operation: operation, detail: detail)
        }
        var hwHandle: OpaquePointer?
        guard snd_pcm_hw_params_malloc(&hwHandle) == 0, let hw = hwHandle else {
            throw AudioError(.driverFailure, device: device, operation: "snd_pcm_hw_params_malloc", errno: ENOMEM)
        }
        defer { snd_pcm_hw_params_free(hw) }
        try check(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any")
        guard snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED) == 0 else {
            throw unsupported("snd_pcm_hw_params_set_access", "It offers no interleaved read access.")
        }

        let formats: [(snd_pcm_format_t, SampleFormat)] = [(SND_PCM_FORMAT_S16_LE, .s16), (SND_PCM_FORMAT_S32_LE, .s32),
                                                           (SND_PCM_FORMAT_FLOAT_LE, .float32)]
        guard let (alsaFormat, sampleFormat) = formats.first(where: { snd_pcm_hw_params_test_format(pcm, hw, $0.0) == 0 }) else {
            throw unsupported("snd_pcm_hw_params_test_format", "It records none of S16_LE, S32_LE, FLOAT_LE.")
        }
        try check(snd_pcm_hw_params_set_format(pcm, hw, alsaFormat), "snd_pcm_hw_params_set_format")

        var rate: UInt32
        if snd_pcm_hw_params_test_rate(pcm, hw, 48000, 0) == 0 {
            rate = 48000
        } else if snd_pcm_hw_params_test_rate(pcm, hw, 44100, 0) == 0 {
            rate = 44100
        } else {
            rate = 48000
            var direction: Int32 = 0
            try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &direction), "snd_pcm_hw_params_set_rate_near")
        }
        guard rate >= 8000 else {
            throw unsupported("snd_pcm_hw_params_set_rate_near", "Its nearest rate is \(rate) Hz; at least 8000 Hz is needed.")
        }
        try check(snd_pcm_hw_params_set_rate(pcm, hw, rate, 0), "snd_pcm_hw_params_set_rate")

        var minChannels: UInt32 = 0
        var maxChannels: UInt32 = 0
        try check(snd_pcm_hw_params_get_channels_min(hw, &minChannels), "snd_pcm_hw_params_get_channels_min")
        try check(snd_pcm_hw_params_get_channels_max(hw, &maxChannels), "snd_pcm_hw_params_get_channels_max")
        func offers(_ count: Int) -> Bool { snd_pcm_hw_params_test_channels(pcm, hw, UInt32(count)) == 0 }
        let wanted = asked ?? (offers(2) ? 2 : offers(1) ? 1 : 2)
        let recorded: Int
        if wanted >= 1 && offers(wanted) {
            recorded = wanted
        } else if wanted >= 1 && Int(minChannels) > wanted {
            // A device with only more channels (a 4-microphone array): record its fewest, keep the first.
            recorded = Int(minChannels)
        } else {
            throw unsupported("snd_pcm_hw_params_set_channels", "It records \(minChannels)-\(maxChannels) channels, not \(wanted).")
        }
        try check(snd_pcm_hw_params_set_channels(pcm, hw, UInt32(recorded)), "snd_pcm_hw_params_set_channels")

        // The buffer first: its length is what rides out a stall; the period then fits into it.
        var bufferTime: UInt32 = 500_000
        var periodTime: UInt32 = 10_000
        var direction: Int32 = 0
        try check(snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferTime, &direction), "snd_pcm_hw_params_set_buffer_time_near")
        direction = 0
        try check(snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodTime, &direction), "snd_pcm_hw_params_set_period_time_near")
        try check(snd_pcm_hw_params(pcm, hw), "snd_pcm_hw_params")
        var period: snd_pcm_uframes_t = 0
        var buffer: snd_pcm_uframes_t = 0
        direction = 0
        try check(snd_pcm_hw_params_get_period_size(hw, &period, &direction), "snd_pcm_hw_params_get_period_size")
        try check(snd_pcm_hw_params_get_buffer_size(hw, &buffer), "snd_pcm_hw_params_get_buffer_size")

        var swHandle: OpaquePointer?
        guard snd_pcm_sw_params_malloc(&swHandle) == 0, let sw = swHandle else {
            throw AudioError(.driverFailure, device: device, operation: "snd_pcm_sw_params_malloc", errno: ENOMEM)
        }
        defer { snd_pcm_sw_params_free(sw) }
        try check(snd_pcm_sw_params_current(pcm, sw), "snd_pcm_sw_params_current")
        try check(snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE), "snd_pcm_sw_params_set_tstamp_mode")
        // The clock of V4L2 buffer timestamps, so sound and pictures line up.
        try check(snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC), "snd_pcm_sw_params_set_tstamp_type")
        try check(snd_pcm_sw_params_set_avail_min(pcm, sw, period), "snd_pcm_sw_params_set_avail_min")
        try check(snd_pcm_sw_params(pcm, sw), "snd_pcm_sw_params")

        return Negotiated(format: AudioFormat(sampleRate: Int(rate), channels: min(wanted, recorded), sampleFormat: sampleFormat),
                          deviceChannels: recorded, periodFrames: Int(period), bufferFrames: Int(buffer))
    }

    /// The long name of the card behind an open PCM ("Loopback 1"), nil when it is not a card's.
    static func cardLongName(_ pcm: OpaquePointer) -> String? {
        var infoHandle: OpaquePointer?
        guard snd_pcm_info_malloc(&infoHandle) == 0, let info = infoHandle else { return nil }
        defer { snd_pcm_info_free(info) }
        guard snd_pcm_info(pcm, info) == 0 else { return nil }
        let card = snd_pcm_info_get_card(info)
        return card >= 0 ? AudioDevices.longName(ofCard: Int(card)) : nil
    }
}
