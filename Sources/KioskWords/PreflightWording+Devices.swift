import PreflightValues
import MediaValues

extension PreflightWording {
    /// The camera, the microphone and the button.
    static func devices(_ finding: PreflightFinding) -> (String, String?) {
        switch finding {
        case .cameraWorks(let f):
            let name = f.card.isEmpty ? f.device : "\(f.card) (\(f.device))"
            return ("\(name): \(f.format) \(f.width)x\(f.height) at \(number(f.framesPerSecond)) fps, the first picture in \(number(Double(f.firstFrameMilliseconds) / 1000)) s\(f.emulated ? " (converted by libv4l, which costs CPU)" : "")",
                    nil)
        case .cameraLive(let device, let width, let height, let age, let recording):
            return ("\(device): a \(width)x\(height) picture \(age) ms old\(recording ? ", recording now" : "")", nil)
        case .cameraRecording(let device, let frames, let dropped):
            return ("\(device): recording now, \(frames) frames so far (\(dropped) dropped)", nil)
        case .noCamera(let setting):
            return ("no camera found: the booth would record its test pattern",
                    "plug the camera in (recorder devices lists cameras), or set \(setting) to it; to try the booth without one, \(setting) = testsrc records the test pattern on purpose")
        case .testPattern(let setting, let value):
            return ("\(setting) = \(value): the booth records the test pattern, not a camera",
                    "set \(setting) to the booth's camera (recorder devices lists them)")
        case .cameraUnusable(let device, let trouble):
            return ("\(device) \(troubleText(trouble))", cameraFix(trouble, device: device))
        case .cameraNoPicture(let device, let state):
            return ("\(device) gave the kiosk no picture in time (the kiosk is \(state))",
                    "look at the preview; unplug the camera and plug it in again")
        case .soundOff(let setting):
            return ("off (\(setting) = none): shots have no sound", nil)
        case .testBeep:
            return ("the test beep: shots carry it instead of a microphone's sound", nil)
        case .noMicrophone(let camera, let setting):
            return ("\(camera) has no microphone of its own: shots will be silent",
                    "set \(setting) to a microphone (recorder devices lists them), or \(setting) = none to record without")
        case .microphoneHeard(let device, let seconds, let loudest, _):
            return ("\(device): heard, loudest \(number(loudest)) dBFS in \(number(seconds)) s", nil)
        case .microphoneSilent(let device, let seconds, let loudest, let floor):
            return ("\(device) heard nothing above \(number(floor)) dBFS in \(number(seconds)) s (loudest \(number(loudest)) dBFS)",
                    "speak or clap while it listens; if it stays silent, unmute it and turn its gain up (alsamixer), or choose another audio.device")
        case .microphoneClipping(let device, let seconds, _, let clipped):
            return ("\(device) was at full scale for \(number(clipped))% of \(number(seconds)) s: takes will sound distorted",
                    "turn its gain down (alsamixer)")
        case .microphoneUnusable(let device, let trouble):
            return ("the microphone \(device) \(troubleText(trouble))", microphoneFix(trouble, device: device))
        case .microphoneNotHeard(let device, let state):
            return ("the kiosk's meter gave no level for \(device) (the kiosk is \(state))",
                    "check again when no shot is under way; if it stays, the kiosk cannot open the microphone (see the warnings and errors)")
        case .noButton(let setting):
            return ("none (\(setting) is empty): guests use the screen", nil)
        case .buttonReady(let device, let name):
            return ("\(name) (\(device)): ready", nil)
        case .buttonAbsent(let choice, let setting):
            return ("not found: \(setting) = \(choice)",
                    "plug the button in (ls /dev/input/by-id/ shows it), or leave \(setting) empty to use the screen")
        case .buttonRefused(let device, let why):
            return ("\(device) cannot be used: \(why)", "see docs/kiosk.md, the button read by recorder itself")
        case .buttonTaken(let device):
            return ("\(device) is taken by another program (the kiosk, if it runs)",
                    "the operator page checks the kiosk's own button; else close the program that took it")
        default:
            return ("", nil)
        }
    }

    /// "is in use by another program": the end of a sentence that starts with the device.
    static func troubleText(_ trouble: DeviceTrouble) -> String {
        switch trouble {
        case .notThere: "is not there"
        case .permission(let group): "cannot be opened: no permission\(group.map { " (it belongs to group \($0))" } ?? "")"
        case .busy: "is in use by another program"
        case .notACaptureDevice: "is not a capture device"
        case .disconnected: "went away while it was open"
        case .stalled(let seconds): "gave no picture in \(number(seconds)) s"
        case .unsupportedFormat: "offers no format, size or rate recorder can use"
        case .driverRefused(let operation, let code): "was refused by its driver (\(operation)\(code == 0 ? "" : ": \(errorText(code))"))"
        }
    }

    static func cameraFix(_ trouble: DeviceTrouble, device: String) -> String {
        switch trouble {
        case .notThere: "plug it in, or set kiosk.device to a camera recorder devices lists (kiosk.device = testsrc tries the booth without one)"
        case .permission(let group): "add the kiosk's user to group \(group ?? "video") (the package's unit has SupplementaryGroups=video)"
        case .busy: "close the other program (fuser -v \(device)); if it is the kiosk's preview, its operator page checks the camera without taking it"
        case .notACaptureDevice: "set kiosk.device to a camera's capture node (recorder devices lists them)"
        case .disconnected: "check the cable, then check again"
        case .stalled: "unplug it and plug it in again; a smaller shoot.size or shoot.fps needs less USB bandwidth"
        case .unsupportedFormat: "set shoot.format = auto, or another shoot.size or shoot.fps"
        case .driverRefused: "reconnect the camera; another shoot.format or shoot.size may work"
        }
    }

    static func microphoneFix(_ trouble: DeviceTrouble, device: String) -> String {
        switch trouble {
        case .notThere: "plug it in, or set audio.device to a microphone recorder devices lists"
        case .permission(let group): "add the kiosk's user to group \(group ?? "audio") (the package's unit has SupplementaryGroups=audio)"
        case .busy: "close the program that has it (fuser -v /dev/snd/*); if it is the kiosk's meter, its operator page checks it without taking it"
        case .disconnected: "check the cable, then check again"
        case .notACaptureDevice, .stalled, .unsupportedFormat, .driverRefused: "choose another audio.device (recorder devices lists them), or audio.device = none"
        }
    }
}
