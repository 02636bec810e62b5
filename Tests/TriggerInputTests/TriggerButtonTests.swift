import Testing
import FoundationEssentials
import Glibc
import Synchronization
import TriggerInput

struct TriggerButtonTests {
    @Test func settings() {
        #expect(TriggerChoice(setting: "", match: "x") == nil)
        #expect(TriggerChoice(setting: "none", match: "x") == nil)
        #expect(TriggerChoice(setting: "/dev/input/by-id/usb-x-event-kbd", match: "x") == .device("/dev/input/by-id/usb-x-event-kbd"))
        #expect(TriggerChoice(setting: "auto", match: "Button | PEDAL||") == .auto(matching: ["button", "pedal"]))
    }

    @Test func autoMatchesNamesInAnyCase() {
        let auto = TriggerChoice(setting: "auto", match: "button|switch|pedal|foot")!
        #expect(auto.matches(name: "PCsensor FootSwitch"))
        #expect(auto.matches(name: "Dream Cheeky Big Red Button"))
        #expect(!auto.matches(name: "AT Translated Set 2 keyboard"))
        #expect(!TriggerChoice.device("/dev/input/event3").matches(name: "button"))
    }

    @Test func noDeviceWaits() async throws {
        // A path that is not there: the button waits for it (it may be plugged in later), and
        // says so, rather than failing the kiosk.
        let states = StateLog()
        let button = TriggerButton(.device("/nonexistent/event-kbd"), onPress: {}, onState: { states.append($0) })
        defer { button.stop() }
        #expect(button.state.state == .waiting)
        #expect(button.state.presses == 0)
    }

    @Test func aFileThatIsNotAnInputDeviceIsRefusedWithTheFix() async throws {
        let states = StateLog()
        let button = TriggerButton(.device("/dev/null"), onPress: {}, onState: { states.append($0) })
        defer { button.stop() }
        for _ in 0..<100 where states.last == nil { try await Task.sleep(for: .milliseconds(20)) }
        guard case .refused(let device, let why)? = states.last else {
            Issue.record("state \(String(describing: states.last))")
            return
        }
        #expect(device == "/dev/null")
        #expect(why.contains("not an input device") && why.contains("/dev/input/by-id/"))
    }
}

/// States heard from the button's thread.
private final class StateLog: Sendable {
    private let states = Mutex<[TriggerState]>([])
    func append(_ state: TriggerState) { states.withLock { $0.append(state) } }
    var last: TriggerState? { states.withLock { $0.last } }
}
