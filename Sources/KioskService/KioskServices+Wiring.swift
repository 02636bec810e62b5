import Logging
import Shooting
import SystemSupport
import KioskWords
import KioskState
import ShotValues

extension KioskServices {
    /// Connects the camera's events to the guest's flow, the pages, the metrics, the journal,
    /// `kiosk.on_state` and systemd's STATUS=.
    package func wire() async {
        let (metrics, logger, notifier, events, stateHook, guests) = (self.metrics, self.logger, self.notifier, self.events, self.stateHook, self.guests)
        let (history, clock) = (self.history, self.clock)
        await manager.observe { event in
            metrics.record(event)
            guests.cameraEvent(event)
            switch event {
            case .state(let state):
                var present = true
                if case .cameraMissing = state { present = false }
                history.camera(present: present, at: clock.now)
                events.announce("state")
                stateHook?.call(state.name)
                notifier.status(StatusReporter.line(state))
                switch state {
                case .failed(let why): logger.error("shot failed: \(why.text())")
                case .cameraMissing(let why): logger.warning("camera missing: \(why.text())")
                default: logger.debug("state \(state.name)")
                }
            case .shotFinished(let result):
                let shot = result.shot
                history.shotEncoded(by: shot.encoder)
                events.announce("shot")
                logger.notice("shot \(shot.id): \(shot.frames) frames (\(shot.framesDropped) dropped), \(String(cFormat: "%.2f", shot.durationSeconds)) s\(result.cameraLost.map { "; camera lost: \($0.text())" } ?? "")")
                // The silent-take guard: the operator hears of a take nobody can hear at once.
                if let check = shot.audio?.check, let note = SoundCheck.note(check) {
                    logger.warning("shot \(shot.id): \(note)")
                }
            case .shotFailed:
                events.announce("state")
            case .shotDiscarded(let why):
                logger.notice("shot not kept: \(why.text())")
                events.announce("state")
            }
        }
    }
}
