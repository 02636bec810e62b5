import Glibc
import SystemSupport

/// The input devices the kernel has (`/sys/class/input/event*`), read from sysfs: names need no
/// permission there, where opening the device node does.
package enum InputDevices {
    package struct Device: Sendable, Equatable {
        /// `/dev/input/eventN`.
        package var path: String
        package var name: String
        /// The bus it is on (`BUS_USB` 0x03, `BUS_BLUETOOTH` 0x05, `BUS_HOST` 0x19 for the
        /// machine's own power button and lid switch, ...).
        package var bus: Int?

        /// Plugged in from outside (USB or Bluetooth), as booth buttons are: `auto` takes only
        /// these, never the machine's own "Power Button" or "Lid Switch".
        package var isExternal: Bool { bus == 0x03 || bus == 0x05 }
    }

    /// Every event device, by number.
    package static func all(sysfs: String = "/sys/class/input") -> [Device] {
        let entries = DirectoryListing.namesIfReadable(sysfs)
        return entries.filter { $0.hasPrefix("event") }
            .sorted { (Int($0.dropFirst(5)) ?? 0) < (Int($1.dropFirst(5)) ?? 0) }
            .compactMap { entry in
                guard let name = readLine(sysfs + "/" + entry + "/device/name") else { return nil }
                let bus = readLine(sysfs + "/" + entry + "/device/id/bustype").flatMap { Int($0, radix: 16) }
                return Device(path: "/dev/input/" + entry, name: name, bus: bus)
            }
    }

    private static func readLine(_ path: String) -> String? {
        // (sysfs files that may be missing or unreadable: then the device has no name here)
        guard let fd = try? Posix.open(path, O_RDONLY | O_CLOEXEC) else { return nil }
        defer { Posix.closeAfterUse(fd) }
        guard let bytes = try? Posix.readAll(fd, limit: 4096) else { return nil }
        return String(decoding: bytes, as: UTF8.self).trimmed()
    }
}
