import ShotValues
import Settings
import Shooting
import SystemSupport

/// How `recorder shoot` words a shot's levelled sound and its effect, one line each.
extension CLIWords {
    /// Why the shot is shorter than asked.
    static func ending(_ ending: ShotEnding) -> String {
        switch ending {
        case .stopped: "stopped"
        case .endOfInput: "the input ended"
        case .cameraLost: "the camera was lost; what it recorded is kept"
        case .diskFull: "the disk filled up; the whole fragments are kept"
        case .interrupted: "interrupted (kill, crash or power cut); recovered at the next start"
        }
    }

    static func loudness(_ loudness: ShotAudio.Loudness) -> String {
        let target = String(cFormat: "%g LUFS", loudness.targetLUFS)
        switch loudness.left {
        case .silent?: return "sound left as recorded, not brought to \(target): the take is silent"
        case .nothingToMeasure?: return "sound left as recorded, not brought to \(target): nothing over -70 LUFS to measure"
        case .failure(let failure)?: return "sound left as recorded, not brought to \(target): \(fault(failure))"
        case .failed(let operation, let detail)?: return "sound left as recorded, not brought to \(target): \(operation) failed (\(detail))"
        case nil:
            let before = loudness.before.map { String(cFormat: "%.1f LUFS (true peak %.1f dBTP)", $0.integratedLUFS, $0.truePeakDBTP) } ?? "?"
            let after = loudness.after.map { String(cFormat: "%.1f LUFS (true peak %.1f dBTP)", $0.integratedLUFS, $0.truePeakDBTP) } ?? "?"
            return "sound \(before) brought to \(after), \(String(cFormat: "%+.1f dB", loudness.gainDB ?? 0))\(loudness.limited == true ? ", its peaks limited" : "")"
        }
    }

    static func effect(_ effect: ShotEffect, shot: Shot) -> String {
        let made = effect.renderSeconds.map { String(cFormat: " in %.2f s", $0) } ?? ""
        let take = shot.originalPath.map { ", the take kept as \($0)" } ?? ""
        switch (effect.notRendered, effect.name) {
        case (.cameraTooSlow(let fastest)?, _):
            return String(cFormat: "not slowed: the camera's fastest at %dx%d is %g fps, no faster than the 30 fps it would play at (nothing faked)", shot.width, shot.height, fastest)
        case (.failure(let failure)?, _):
            return "the \(effect.name.rawValue) was not made; the shot is the take as recorded: \(fault(failure))"
        case (.failed(let operation, let detail)?, _):
            return "the \(effect.name.rawValue) was not made (\(operation): \(detail)); the shot is the take as recorded"
        case (nil, .boomerang):
            let cycle = effect.boomerang.map { String(cFormat: " (%d pictures forward and back, %d in all)", $0.cycleFrames, $0.frames) } ?? ""
            return "boomerang\(cycle) made\(made)\(take)"
        case (nil, .slowmo):
            guard let slow = effect.slowMotion else { return "slow motion made\(made)\(take)" }
            let limited = slow.cameraLimited ? String(cFormat: ": the camera's fastest at this size is %g fps, so not 2x", slow.recordedFrameRate) : ""
            return String(cFormat: "slow motion %gx, recorded at %g fps, played at %g fps", slow.factor, slow.recordedFrameRate, slow.playbackFrameRate)
                + "\(limited), made\(made)\(take)"
        case (nil, .none):
            return "no effect"
        }
    }
}
