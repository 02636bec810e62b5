import Testing
import FoundationEssentials
import Glibc
import Synchronization
import TriggerInput

/// The button's events as evdev gives them (1 down, 0 up, 2 the driver's repeat), in milliseconds.
private func presses(_ events: [(ms: Int64, value: Int32)]) -> [Int64] {
    var filter = PressFilter()
    return events.filter { filter.key(value: $0.value, at: $0.ms * 1000) }.map(\.ms)
}

struct PressFilterTests {
    @Test func aPressAndARelease() {
        #expect(presses([(0, 1), (120, 0)]) == [0])
    }

    @Test func aHeldKeyIsOnePress() {
        // The kernel repeats a held key every 33 ms after 250 ms.
        let repeats = (0..<60).map { (ms: Int64(250 + 33 * $0), value: Int32(2)) }
        #expect(presses([(0, 1)] + repeats + [(2500, 0)]) == [0])
    }

    @Test func bouncingContactsAreOnePress() {
        // Chatter on press and on release, edges 2-5 ms apart.
        #expect(presses([(0, 1), (3, 0), (5, 1), (8, 0), (10, 1), (900, 0), (903, 1), (905, 0)]) == [0])
    }

    @Test func twoDeliberatePressesAreTwo() {
        #expect(presses([(0, 1), (150, 0), (600, 1), (700, 0)]) == [0, 600])
    }

    @Test func pressesCloserThanTheIntervalCountOnce() {
        // The guest page's rule: presses within 400 ms are one.
        #expect(presses([(0, 1), (100, 0), (250, 1), (300, 0), (450, 1)]) == [0, 450])
    }
}
