package import Shooting
package import SystemSupport
package import PreflightValues
package import ShotValues

/// The kiosk's microphone (`audio.device`), listened to for `seconds` and judged as the
/// silent-take guard judges a take: silent, clipping, or heard. Outside the kiosk it is opened for
/// that; inside, the kiosk's own level meter is read, as the operator page's meter reads it.
package enum MicrophoneListen {
    package static let setting = "audio.device"
    package static let seconds = 3.0
    /// How often the level is read while listening.
    static let interval = Duration.milliseconds(100)

    /// Opens the microphone a shot from `camera` (`kiosk.device`: nil for the first) would record
    /// (blocking parts on a helper thread) and listens on `clock` for `seconds`, or until `stop`.
    package static func look(_ choice: AudioChoice, camera: String?, clock: some Clock<Duration>, stop: StopSignal) async -> PreflightFinding {
        let node = await BlockingWork.run { SourceSelector.cameraNode(camera) }
        let device: String
        switch which(choice, camera: node) {
        case .left(let finding): return finding
        case .device(let name): device = name
        }
        let meter: MicrophoneMeter
        switch await BlockingWork.run({ MicrophoneMeter.open(device) }) {
        case .success(let opened): meter = opened
        case .failure(let trouble): return .microphoneUnusable(device: device, trouble: trouble)
        }
        var listened = Duration.zero
        while listened < .seconds(seconds), !stop.isSet {
            guard (try? await clock.sleep(for: interval)) != nil else { break }
            listened += interval
            // (read as it comes, so the verdict measures it; the level itself is the meter's)
            _ = meter.level()
        }
        let verdict = meter.verdict()
        await BlockingWork.run { meter.close() }
        return finding(device, verdict, seconds: listened.seconds)
    }

    /// Listens through the kiosk's own meter (`manager.soundLevel`).
    package static func live(_ manager: CameraManager, choice: AudioChoice, clock: some Clock<Duration>, stop: StopSignal) async -> PreflightFinding {
        let device: String
        switch which(choice, camera: await manager.status().camera) {
        case .left(let finding): return finding
        case .device(let name): device = name
        }
        var check = SoundCheck()
        var heard = false
        var listened = Duration.zero
        while listened < .seconds(seconds), !stop.isSet {
            guard (try? await clock.sleep(for: interval)) != nil else { break }
            listened += interval
            if let level = await manager.soundLevel(choice) {
                check.add(level)
                heard = true
            }
        }
        guard heard else { return .microphoneNotHeard(device: device, state: await manager.recordState.name) }
        return finding(device, check.verdict(endedEarly: false), seconds: listened.seconds)
    }

    enum Which {
        /// Nothing to listen to: the finding says why.
        case left(PreflightFinding)
        case device(String)
    }

    /// The microphone a shot from `camera` records, or why there is none to listen to.
    static func which(_ choice: AudioChoice, camera: String) -> Which {
        switch choice {
        case .none: return .left(.soundOff(setting: setting))
        case .beep: return .left(.testBeep)
        case .auto, .device: break
        }
        guard let device = AudioSelector.describe(choice, camera: camera) else { return .left(.noMicrophone(camera: camera, setting: setting)) }
        return device == "test beep" ? .left(.testBeep) : .device(device)
    }

    static func finding(_ device: String, _ verdict: ShotAudio.Check, seconds: Double) -> PreflightFinding {
        switch verdict.result {
        case "silent": .microphoneSilent(device: device, seconds: seconds, loudestDBFS: verdict.loudestDBFS, floorDBFS: SoundCheck.silentBelowDBFS)
        case "clipping": .microphoneClipping(device: device, seconds: seconds, loudestDBFS: verdict.loudestDBFS, clippedPercent: verdict.clippedPercent)
        default: .microphoneHeard(device: device, seconds: seconds, loudestDBFS: verdict.loudestDBFS, clippedPercent: verdict.clippedPercent)
        }
    }
}
