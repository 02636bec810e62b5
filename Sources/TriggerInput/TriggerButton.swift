internal import CInput
import Glibc
import Synchronization
import SystemSupport

/// The booth's button (a USB arcade button or foot switch: a keyboard to the kernel), read by
/// recorder itself from its evdev node, so it works with no browser in front and its key never
/// reaches one: the device is taken with EVIOCGRAB while open.
///
/// One thread of its own owns the device for the life of the kiosk: it finds the device (a path,
/// or by name), opens and takes it, turns key events into presses (`PressFilter`: a hold is one
/// press, a bounce none) and calls `onPress` for each; when the device goes away (unplugged) it
/// says so and takes it again when it is back. `onState` hears each change of `TriggerState`.
package final class TriggerButton: Sendable {
    package let choice: TriggerChoice
    private let onPress: @Sendable () -> Void
    private let onState: @Sendable (TriggerState) -> Void
    private let current = Mutex<(state: TriggerState, presses: Int)>((.waiting, 0))
    /// The thread sleeps in poll(); `stop` writes a byte here to end it.
    private let wake: WakePipe?
    private let stopped = Atomic<Bool>(false)
    private let sysfs: String

    package init(_ choice: TriggerChoice, sysfs: String = "/sys/class/input",
                 onPress: @escaping @Sendable () -> Void, onState: @escaping @Sendable (TriggerState) -> Void) {
        self.choice = choice
        self.onPress = onPress
        self.onState = onState
        self.sysfs = sysfs
        // (a pipe cannot fail here but for a process out of descriptors: then the button is off)
        wake = WakePipe()
        if wake != nil {
            WorkerThread.start(name: "recorder-button") { [self] in run() }
        } else {
            set(.refused(device: choice.text, why: "recorder is out of file descriptors"))
        }
    }

    /// The button's state now, and the presses it has sent since the kiosk started.
    package var state: (state: TriggerState, presses: Int) { current.withLock { $0 } }

    /// Ends the thread and lets the device go (the kiosk is stopping).
    package func stop() {
        guard !stopped.exchange(true, ordering: .acquiringAndReleasing) else { return }
        wake?.wake()
    }

    private func set(_ state: TriggerState) {
        let changed = current.withLock { value -> Bool in
            defer { value.state = state }
            return value.state != state
        }
        if changed { onState(state) }
    }

    private func run() {
        guard let wake else { return }
        while !stopped.load(ordering: .acquiring) {
            if let (fd, device, name) = open() {
                set(.ready(device: device, name: name))
                let gone = read(fd, wake: wake)
                // Given back as the descriptor closes anyway (and a device unplugged refuses it).
                _ = cinput_grab(fd, 0)
                // (an input device, only read)
                Posix.closeAfterUse(fd)
                if gone { set(.unplugged(device: device, name: name)) }
            }
            // Not there, not usable, or just unplugged: look again in a second.
            if sleep(milliseconds: 1000, wake: wake) { break }
        }
    }

    /// The device, opened and taken; nil (with the state saying why) when it cannot be.
    private func open() -> (fd: Int32, device: String, name: String)? {
        switch Self.take(choice, sysfs: sysfs) {
        case .success(let taken):
            return taken
        case .failure(let refusal):
            // Not plugged in (yet): an unplugged button stays "unplugged" until it is back.
            if case .waiting = refusal.state, case .unplugged = state.state {} else { set(refusal.state) }
            return nil
        }
    }

    /// What `kiosk.trigger` finds now, taken for a moment and given back (`recorder doctor`):
    /// ready, waiting (not there) or refused (why); `takenByAnother`: refused because another
    /// program has taken it (the kiosk, when it runs).
    package static func look(_ choice: TriggerChoice, sysfs: String = "/sys/class/input") -> (state: TriggerState, takenByAnother: Bool) {
        switch take(choice, sysfs: sysfs) {
        case .success(let taken):
            // (giving it back before the close is only tidy: the close lets it go anyway)
            _ = cinput_grab(taken.fd, 0)
            Posix.closeAfterUse(taken.fd)
            return (.ready(device: taken.device, name: taken.name), false)
        case .failure(let refusal):
            return (refusal.state, refusal.takenByAnother)
        }
    }

    /// Why the button cannot be taken now: the state that says so.
    struct Refusal: Error {
        var state: TriggerState
        /// EVIOCGRAB said EBUSY: another reader has taken it for itself.
        var takenByAnother = false
    }

    /// Finds the device `choice` names, opens it and takes it (EVIOCGRAB).
    private static func take(_ choice: TriggerChoice, sysfs: String) -> Result<(fd: Int32, device: String, name: String), Refusal> {
        let device: String
        switch choice {
        case .device(let path):
            device = path
        case .auto:
            guard let found = InputDevices.all(sysfs: sysfs).first(where: { $0.isExternal && choice.matches(name: $0.name) }) else {
                return .failure(Refusal(state: .waiting))
            }
            device = found.path
        }
        let fd: Int32
        do throws(Descriptors.Errno) {
            fd = try Posix.open(device, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } catch {
            switch error.code {
            case ENOENT, ENODEV, ENXIO:
                return .failure(Refusal(state: .waiting))
            case EACCES, EPERM:
                return .failure(Refusal(state: .refused(device: device, why: "no permission to read \(device): recorder's user must be in the group that owns it (usually input)")))
            default:
                return .failure(Refusal(state: .refused(device: device, why: "cannot open \(device): \(error.description)")))
            }
        }
        var buffer = [CChar](repeating: 0, count: 256)
        let named = buffer.withUnsafeMutableBufferPointer { cinput_name(fd, $0.baseAddress, Int32($0.count)) }
        guard named >= 0, cinput_has_keys(fd) == 1 else {
            Posix.closeAfterUse(fd)
            return .failure(Refusal(state: .refused(device: device, why: "\(device) is not an input device with keys (a keyboard, a button): give a /dev/input/by-id/...-event-kbd path")))
        }
        let name = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        if cinput_grab(fd, 1) != 0 {
            let code = errno
            let why = code == EBUSY ? "another program has taken \(device) for itself" : "cannot take \(device): \(String(cString: strerror(code)))"
            Posix.closeAfterUse(fd)
            return .failure(Refusal(state: .refused(device: device, why: why), takenByAnother: code == EBUSY))
        }
        // (without it, the events' times are the wall clock's: a time change would upset the filter)
        _ = cinput_use_monotonic_clock(fd)
        return .success((fd, device, name))
    }

    /// Reads key events until the device goes away (true) or `stop` (false).
    private func read(_ fd: Int32, wake: WakePipe) -> Bool {
        var filter = PressFilter()
        let size = Int(CINPUT_EVENT_SIZE)
        let events = UnsafeMutableRawBufferPointer.allocate(byteCount: size * 64, alignment: 16)
        defer { events.deallocate() }
        while !stopped.load(ordering: .acquiring) {
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return true
            }
            if fds[1].revents != 0 { return false }
            let n: Int
            do throws(Descriptors.Errno) {
                n = try Posix.read(fd, into: events)
            } catch {
                if error.code == EAGAIN { continue }
                // ENODEV: unplugged (the kernel ends every open descriptor of a removed device).
                return true
            }
            if n == 0 { return true }
            for offset in stride(from: 0, to: n - size + 1, by: size) {
                let event = UnsafeRawPointer(events.baseAddress!) + offset
                guard cinput_event_type(event) == CINPUT_EV_KEY else { continue }
                if filter.key(value: cinput_event_value(event), at: cinput_event_microseconds(event)) {
                    current.withLock { $0.presses += 1 }
                    onPress()
                }
            }
        }
        return false
    }

    /// Waits `milliseconds`, or less when `stop` is called (then true).
    private func sleep(milliseconds: Int32, wake: WakePipe) -> Bool {
        var fds = [pollfd(fd: wake.readEnd, events: Int16(POLLIN), revents: 0)]
        while poll(&fds, 1, milliseconds) < 0 && errno == EINTR {}
        return fds[0].revents != 0 || stopped.load(ordering: .acquiring)
    }
}
