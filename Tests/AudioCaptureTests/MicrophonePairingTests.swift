import AudioCapture
import Foundation
import Testing

/// The camera's microphone is found through sysfs alone: these build a small sysfs tree in a
/// temporary directory, laid out (with relative symlinks) as the kernel lays out /sys.
@Suite struct MicrophonePairingTests {
    /// A fake /sys with:
    /// - video0 on USB device 1-1 (interface 1-1:1.0), whose interface 1-1:1.3 is sound card 1;
    /// - video2 on USB device 1-3, which has no sound card; card 2 is a USB microphone on 1-2;
    /// - video4 a platform device (vivid.0) and card 0 a platform card (snd_aloop.0).
    final class FakeSysfs {
        let root: String
        let usb = "devices/pci0000:00/0000:00:14.0/usb1"

        init() throws {
            root = FileManager.default.temporaryDirectory.appendingPathComponent("sysfs-\(UUID().uuidString)").path
            try video(0, device: "\(usb)/1-1/1-1:1.0")
            try card(1, device: "\(usb)/1-1/1-1:1.3")
            try video(2, device: "\(usb)/1-3/1-3:1.0")
            try card(2, device: "\(usb)/1-2/1-2:1.0")
            try video(4, device: "devices/platform/vivid.0")
            try card(0, device: "devices/platform/snd_aloop.0")
        }

        deinit { try? FileManager.default.removeItem(atPath: root) }

        /// `<root>/<device>/<subsystem>/<node>` with `device` -> the device, and
        /// `<root>/class/<subsystem>/<node>` -> that directory, both relative as in /sys.
        private func node(_ name: String, subsystem: String, device: String) throws {
            let fm = FileManager.default
            let nodeDirectory = "\(root)/\(device)/\(subsystem)/\(name)"
            try fm.createDirectory(atPath: nodeDirectory, withIntermediateDirectories: true)
            try fm.createSymbolicLink(atPath: "\(nodeDirectory)/device", withDestinationPath: "../..")
            try fm.createDirectory(atPath: "\(root)/class/\(subsystem)", withIntermediateDirectories: true)
            try fm.createSymbolicLink(atPath: "\(root)/class/\(subsystem)/\(name)",
                                      withDestinationPath: "../../\(device)/\(subsystem)/\(name)")
        }

        func video(_ n: Int, device: String) throws { try node("video\(n)", subsystem: "video4linux", device: device) }
        func card(_ n: Int, device: String) throws { try node("card\(n)", subsystem: "sound", device: device) }

        /// The capture devices `AudioDevices.list` would report for these cards (card 1 has two).
        var devices: [AudioDeviceInfo] {
            [(0, "Loopback", 0), (0, "Loopback", 1), (1, "C920", 0), (1, "C920", 1), (2, "USBMic", 0)].map { index, id, device in
                AudioDeviceInfo(name: AudioDeviceInfo.stableName(cardID: id, device: device), cardIndex: index, cardID: id,
                                cardName: id, cardLongName: "\(id) long", device: device, deviceName: "PCM",
                                sysfsPath: AudioDevices.cardSysfsPath(cardIndex: index, sysfsRoot: root))
            }
        }
    }

    @Test func theSysfsPathsResolveThroughTheSymlinks() throws {
        let sysfs = try FakeSysfs()
        let video = try #require(AudioDevices.videoSysfsPath(of: "/dev/video0", sysfsRoot: sysfs.root))
        #expect(video.hasSuffix("/usb1/1-1/1-1:1.0"), "\(video)")
        #expect(!video.contains("/class/"))
        let card = try #require(AudioDevices.cardSysfsPath(cardIndex: 1, sysfsRoot: sysfs.root))
        #expect(card.hasSuffix("/usb1/1-1/1-1:1.3"), "\(card)")
        #expect(AudioDevices.cardSysfsPath(cardIndex: 7, sysfsRoot: sysfs.root) == nil)
        #expect(AudioDevices.videoSysfsPath(of: "/dev/video9", sysfsRoot: sysfs.root) == nil)
        #expect(AudioDevices.videoSysfsPath(of: "/dev/null", sysfsRoot: sysfs.root) == nil)
    }

    @Test func aCameraAndItsMicrophoneOnOneUSBDevicePair() throws {
        let sysfs = try FakeSysfs()
        let mic = try #require(AudioDevices.microphone(pairedWithCamera: "/dev/video0", among: sysfs.devices, sysfsRoot: sysfs.root))
        #expect(mic.name == "hw:CARD=C920,DEV=0")
        #expect(mic.cardIndex == 1)
    }

    @Test func aByIdNameIsFollowedToItsNode() throws {
        let sysfs = try FakeSysfs()
        let dev = "\(sysfs.root)/dev"
        try FileManager.default.createDirectory(atPath: "\(dev)/v4l/by-id", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: "\(dev)/video0", contents: nil))
        try FileManager.default.createSymbolicLink(atPath: "\(dev)/v4l/by-id/usb-046d_C920-video-index0", withDestinationPath: "../../video0")
        let mic = AudioDevices.microphone(pairedWithCamera: "\(dev)/v4l/by-id/usb-046d_C920-video-index0",
                                          among: sysfs.devices, sysfsRoot: sysfs.root)
        #expect(mic?.name == "hw:CARD=C920,DEV=0")
    }

    @Test func aCameraOnAnotherUSBDeviceDoesNotPair() throws {
        let sysfs = try FakeSysfs()
        #expect(AudioDevices.microphone(pairedWithCamera: "/dev/video2", among: sysfs.devices, sysfsRoot: sysfs.root) == nil)
    }

    @Test func platformDevicesNeverPair() throws {
        // vivid.0 and snd_aloop.0 share /sys/devices/platform without being one device.
        let sysfs = try FakeSysfs()
        #expect(AudioDevices.microphone(pairedWithCamera: "/dev/video4", among: sysfs.devices, sysfsRoot: sysfs.root) == nil)
        let video = try #require(AudioDevices.videoSysfsPath(of: "/dev/video4", sysfsRoot: sysfs.root))
        let card = AudioDevices.cardSysfsPath(cardIndex: 0, sysfsRoot: sysfs.root)
        #expect(AudioDevices.pairedCard(videoSysfsPath: video, cards: [(0, card)]) == nil)
    }

    @Test func usbInterfacesAreRecognisedByName() {
        let usb = "/sys/devices/pci0000:00/0000:00:14.0/usb1"
        #expect(AudioDevices.usbDevice(ofInterface: "\(usb)/1-1/1-1:1.0") == "\(usb)/1-1")
        #expect(AudioDevices.usbDevice(ofInterface: "\(usb)/1-1/1-1.4/1-1.4:1.2") == "\(usb)/1-1/1-1.4")
        #expect(AudioDevices.usbDevice(ofInterface: "\(usb)/1-1") == nil)
        #expect(AudioDevices.usbDevice(ofInterface: "\(usb)/1-2/1-1:1.0") == nil)
        #expect(AudioDevices.usbDevice(ofInterface: "/sys/devices/platform/snd_aloop.0") == nil)
        #expect(AudioDevices.usbDevice(ofInterface: "/sys/devices/pci0000:00/0000:00:1f.3") == nil)
    }

    @Test func pairingIsByUSBDeviceNotByCardOrder() {
        let usb = "/sys/devices/pci0000:00/0000:00:14.0/usb1"
        let cards: [(index: Int, sysfsPath: String?)] = [(0, nil), (1, "\(usb)/1-2/1-2:1.0"), (3, "\(usb)/1-1/1-1:1.3")]
        #expect(AudioDevices.pairedCard(videoSysfsPath: "\(usb)/1-1/1-1:1.0", cards: cards) == 3)
        #expect(AudioDevices.pairedCard(videoSysfsPath: "\(usb)/1-4/1-4:1.0", cards: cards) == nil)
    }
}
