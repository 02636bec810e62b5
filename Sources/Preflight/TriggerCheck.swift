package import TriggerInput
package import PreflightValues

/// The booth's button (`kiosk.trigger`): found, and usable.
package enum TriggerCheck {
    package static let setting = "kiosk.trigger"

    /// Finds and takes the button for a moment (blocking); nil `choice`: none is configured.
    package static func look(_ choice: TriggerChoice?, sysfs: String = "/sys/class/input") -> PreflightFinding {
        guard let choice else { return .noButton(setting: setting) }
        let (state, taken) = TriggerButton.look(choice, sysfs: sysfs)
        if taken, case .refused(let device, _) = state { return .buttonTaken(device: device) }
        return finding(state, choice: choice)
    }

    /// The kiosk's own button's state, as its reader has it.
    package static func finding(_ state: TriggerState, choice: TriggerChoice) -> PreflightFinding {
        switch state {
        case .ready(let device, let name): .buttonReady(device: device, name: name)
        case .waiting, .unplugged: .buttonAbsent(choice: choice.text, setting: setting)
        case .refused(let device, let why): .buttonRefused(device: device, why: why)
        }
    }
}
