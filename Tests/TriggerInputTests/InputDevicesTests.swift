import Testing
import FoundationEssentials
import Glibc
import Synchronization
import TriggerInput

struct InputDevicesTests {
    @Test func autoTakesOnlyUSBAndBluetoothDevicesFromSysfs() throws {
        // A sysfs tree as the kernel lays it out: the machine's power button (BUS_HOST) would
        // match "button" by name, but auto never takes it.
        let root = "/tmp/recorder-input-\(getpid())"
        defer { _ = try? FileManager.default.removeItem(atPath: root) }
        for (entry, name, bus) in [("event0", "Power Button", "0019"), ("event10", "USB Big Red Button", "0003"), ("event2", "BT Pedal", "0005")] {
            try FileManager.default.createDirectory(atPath: "\(root)/\(entry)/device/id", withIntermediateDirectories: true)
            try (name + "\n").write(toFile: "\(root)/\(entry)/device/name", atomically: false, encoding: .utf8)
            try (bus + "\n").write(toFile: "\(root)/\(entry)/device/id/bustype", atomically: false, encoding: .utf8)
        }
        let devices = InputDevices.all(sysfs: root)
        #expect(devices.map(\.path) == ["/dev/input/event0", "/dev/input/event2", "/dev/input/event10"])
        #expect(devices.map(\.isExternal) == [false, true, true])
        let auto = try #require(TriggerChoice(setting: "auto", match: "button"))
        #expect(devices.first { $0.isExternal && auto.matches(name: $0.name) }?.name == "USB Big Red Button")
    }
}
