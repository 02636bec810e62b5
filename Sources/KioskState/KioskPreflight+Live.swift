package import FoundationEssentials
import Glibc
import Library
package import Preflight
package import Settings
package import Shooting
package import TriggerInput
import PreflightValues
import SystemSupport

extension KioskPreflight {
    /// The checks the operator page runs inside the kiosk: its camera through its preview, its
    /// microphone through its meter, its button as its reader has it, and itself as the service.
    package static func live(settings: KioskSettings, configuration: RecorderConfiguration, manager: CameraManager,
                             trigger: TriggerButton?, paths: PreflightPaths, clock: any Clock<Duration>,
                             now: @escaping @Sendable () -> Date) -> [PreflightProbe] {
        let environment = configuration.environment
        let button: PreflightFinding = trigger.map { TriggerCheck.finding($0.state.state, choice: $0.choice) } ?? .noButton(setting: TriggerCheck.setting)
        return [
            .known(.configuration, .configurationAccepted(file: configuration.file)),
            PreflightProbe(.camera, deadline: deviceDeadline) { stop in
                await CameraCheck.live(manager, preview: settings.previewRequest, configured: settings.device, stop: stop)
            },
            PreflightProbe(.microphone, deadline: deviceDeadline) { stop in
                await MicrophoneListen.live(manager, choice: settings.audio, clock: clock, stop: stop)
            },
            .known(.trigger, button),
            .blocking(.clock, deadline: quickDeadline) { _ in
                ClockCheck.look(now: now(), synchronised: TimeSync.synchronised(timedatectl: paths.timedatectl))
            },
            .known(.service, .serviceIsThis(pid: Posix.processID, underSystemd: environment["INVOCATION_ID"] != nil || environment["NOTIFY_SOCKET"] != nil)),
        ] + common(configuration, paths: paths, request: settings.shotRequest())
    }
}

extension PreflightService {
    /// The operator page's preflight of this kiosk (`KioskPreflight.live`), its clock check asking
    /// `settings.timedatectl`.
    package static func live(settings: KioskSettings, configuration: RecorderConfiguration, manager: CameraManager,
                             trigger: TriggerButton?, clock: any Clock<Duration> = ContinuousClock(),
                             now: @escaping @Sendable () -> Date = { Date() }) -> PreflightService {
        var paths = PreflightPaths()
        paths.timedatectl = settings.timedatectl
        let kept = paths
        return PreflightService(clock: clock, now: now) {
            KioskPreflight.live(settings: settings, configuration: configuration, manager: manager, trigger: trigger, paths: kept, clock: clock, now: now)
        }
    }
}
