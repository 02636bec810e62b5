package import AudioCapture
import Settings
package import MediaValues
package import Failures
package import ShotValues

/// The microphone check before an event (`recorder devices --listen SECONDS`): every microphone
/// opened at once and measured while the operator speaks, claps or plays something, each judged as
/// the silent-take guard judges a take (silent, clipping, ok), so a muted input, a gain at zero or
/// the wrong device is found before the first guest, not after the event.
package final class MicrophoneCheck {
    /// One microphone: what it hears now, and once done what it heard in all.
    package struct Reading: Sendable, Codable, Equatable {
        package var name: String
        package var cardName: String
        /// The last half second's peak and RMS (dBFS); nil when it could not be opened.
        package var peakDBFS: Double?
        package var rmsDBFS: Double?
        /// Once done: the verdict (ok, silent, clipping), the loudest peak, the share at full scale.
        package var check: ShotAudio.Check?
        /// Why it could not be opened or read (busy: another program has it, no permission...).
        package var problem: String?

        package init(name: String, cardName: String, peakDBFS: Double?, rmsDBFS: Double?, check: ShotAudio.Check?, problem: String?) {
            (self.name, self.cardName, self.peakDBFS, self.rmsDBFS, self.check, self.problem) = (name, cardName, peakDBFS, rmsDBFS, check, problem)
        }
    }

    private let devices: [AudioDeviceInfo]
    private var monitors: [SoundMonitor?]
    private var problems: [String?]

    /// Opens every one of `devices` (blocking; a device that cannot be opened is named, with why).
    package init(_ devices: [AudioDeviceInfo]) {
        self.devices = devices
        var monitors: [SoundMonitor?] = []
        var problems: [String?] = []
        for device in devices {
            do throws(AudioError) {
                monitors.append(try SoundMonitor.open(device.name))
                problems.append(nil)
            } catch {
                monitors.append(nil)
                problems.append("\(RecorderError.wrap(error))")
            }
        }
        self.monitors = monitors
        self.problems = problems
        listening = monitors.compactMap { $0 }.count
    }

    /// How many microphones it holds (opened or not).
    package var count: Int { devices.count }

    /// How many could be opened (and were listened to).
    package let listening: Int

    /// Each microphone's level now (peak-held over the last half second).
    package func readings() -> [Reading] {
        devices.indices.map { i in
            let level = monitors[i]?.level()
            return Reading(name: devices[i].name, cardName: devices[i].cardName, peakDBFS: level?.peakDBFS, rmsDBFS: level?.rmsDBFS,
                           check: nil, problem: problems[i])
        }
    }

    /// The verdicts, and every microphone let go.
    package func finish() -> [Reading] {
        var result = readings()
        for i in devices.indices {
            if let monitor = monitors[i] {
                result[i].check = monitor.verdict()
                monitor.close()
            }
        }
        monitors = monitors.map { _ in nil }
        return result
    }

    deinit {
        for monitor in monitors { monitor?.close() }
    }
}
