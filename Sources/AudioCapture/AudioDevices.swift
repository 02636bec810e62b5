internal import CAlsa
#if canImport(Glibc)
import Glibc
#endif
internal import SystemSupport

/// Finds ALSA capture devices and the microphone built into a camera.
package enum AudioDevices {
    /// Every PCM device with a capture substream, cards in index order; empty when the machine has
    /// no sound card (or this user may open none), never an error.
    package static func list(sysfsRoot: String = "/sys") -> [AudioDeviceInfo] {
        quietLibrary()
        var devices: [AudioDeviceInfo] = []
        var card: Int32 = -1
        while snd_card_next(&card) == 0, card >= 0 {
            devices += captureDevices(ofCard: Int(card), sysfsRoot: sysfsRoot)
        }
        return devices
    }

    /// Why `list()` may miss cards: "/dev/snd/controlC0 cannot be opened by this user (group 'audio')…"
    /// naming the fix; nil when this user may open every card's control node.
    package static func permissionProblem() -> String? {
        guard let node = SoundNodes.forbiddenControlNode() else { return nil }
        let group = DevicePermissions.owningGroup(of: node)
        let name = group ?? "audio"
        return "\(node) cannot be opened by this user\(group.map { " (it belongs to group '\($0)')" } ?? ""). Fix: `sudo usermod -aG \(name) $USER` then log out and in again."
    }

    /// The microphone of the camera at `videoPath` (`/dev/video0` or a `/dev/v4l/by-id/` link):
    /// the capture device of a sound card that is another interface of the camera's USB device.
    /// nil when the camera has none, or is not a USB device.
    package static func microphone(pairedWithCamera videoPath: String, sysfsRoot: String = "/sys") -> AudioDeviceInfo? {
        microphone(pairedWithCamera: videoPath, among: list(sysfsRoot: sysfsRoot), sysfsRoot: sysfsRoot)
    }

    /// As `microphone(pairedWithCamera:sysfsRoot:)`, among devices already listed: the lowest
    /// device number of the paired card.
    package static func microphone(pairedWithCamera videoPath: String, among devices: [AudioDeviceInfo],
                                   sysfsRoot: String = "/sys") -> AudioDeviceInfo? {
        guard let video = videoSysfsPath(of: videoPath, sysfsRoot: sysfsRoot) else { return nil }
        var cards: [(index: Int, sysfsPath: String?)] = []
        for device in devices where !cards.contains(where: { $0.index == device.cardIndex }) {
            cards.append((device.cardIndex, device.sysfsPath))
        }
        guard let card = pairedCard(videoSysfsPath: video, cards: cards) else { return nil }
        return devices.filter { $0.cardIndex == card }.min { $0.device < $1.device }
    }

    /// The index of the card whose sysfs device is an interface of the same USB device as the
    /// camera's (`…/usb1/1-1/1-1:1.0` and `…/usb1/1-1/1-1:1.3` are both of `…/usb1/1-1`); nil when
    /// none is. Cards and cameras that are not USB interfaces never pair: a platform camera and a
    /// platform card share `/sys/devices/platform` without being one device.
    package static func pairedCard(videoSysfsPath: String, cards: [(index: Int, sysfsPath: String?)]) -> Int? {
        guard let camera = usbDevice(ofInterface: videoSysfsPath) else { return nil }
        return cards.first { card in card.sysfsPath.flatMap(usbDevice(ofInterface:)) == camera }?.index
    }

    /// The USB device directory of a USB interface's sysfs path (`…/1-1.4/1-1.4:1.0` → `…/1-1.4`),
    /// or nil when the path's last component is not a USB interface (`<bus>-<ports>:<config>.<interface>`).
    package static func usbDevice(ofInterface path: String) -> String? {
        let name = FilePaths.name(of: path)
        let halves = name.split(separator: ":", omittingEmptySubsequences: false)
        guard halves.count == 2 else { return nil }
        let port = halves[0].split(separator: "-", omittingEmptySubsequences: false)
        let interface = halves[1].split(separator: ".", omittingEmptySubsequences: false)
        func digits(_ text: Substring) -> Bool { !text.isEmpty && text.allSatisfy { $0.isASCII && $0.isNumber } }
        guard port.count == 2, digits(port[0]),
              port[1].split(separator: ".", omittingEmptySubsequences: false).allSatisfy(digits),
              interface.count == 2, interface.allSatisfy(digits) else { return nil }
        let parent = FilePaths.directory(of: path)
        // The interface's parent must be the device it names ("1-1:1.0" under "1-1").
        return FilePaths.name(of: parent) == String(halves[0]) ? parent : nil
    }

    /// The resolved sysfs device of a V4L2 node: `<sysfsRoot>/class/video4linux/videoN/device`,
    /// N from the node's name after following symlinks (a `/dev/v4l/by-id/` name).
    package static func videoSysfsPath(of videoPath: String, sysfsRoot: String = "/sys") -> String? {
        let node = FilePaths.name(of: resolved(videoPath) ?? videoPath)
        guard node.hasPrefix("video"), Int(node.dropFirst(5)) != nil else { return nil }
        return resolved(FilePaths.join(sysfsRoot, "class/video4linux/\(node)/device"))
    }

    /// The resolved sysfs device of sound card `index`, nil when it has none.
    package static func cardSysfsPath(cardIndex index: Int, sysfsRoot: String = "/sys") -> String? {
        resolved(FilePaths.join(sysfsRoot, "class/sound/card\(index)/device"))
    }

    // MARK: - ALSA

    /// Silences alsa-lib's own stderr lines before its first use (see shim.h).
    static func quietLibrary() { _ = silenced }
    private static let silenced: Void = calsa_silence_library_errors()

    /// The capture devices of card `index`, from its control device; empty when it cannot be opened.
    static func captureDevices(ofCard index: Int, sysfsRoot: String) -> [AudioDeviceInfo] {
        var ctl: OpaquePointer?
        guard snd_ctl_open(&ctl, "hw:\(index)", 0) == 0, let ctl else { return [] }
        defer { snd_ctl_close(ctl) }
        var cardInfo: OpaquePointer?
        guard snd_ctl_card_info_malloc(&cardInfo) == 0, let cardInfo else { return [] }
        defer { snd_ctl_card_info_free(cardInfo) }
        guard snd_ctl_card_info(ctl, cardInfo) == 0 else { return [] }
        let id = text(snd_ctl_card_info_get_id(cardInfo))
        let name = text(snd_ctl_card_info_get_name(cardInfo))
        let longName = text(snd_ctl_card_info_get_longname(cardInfo))
        let sysfs = cardSysfsPath(cardIndex: index, sysfsRoot: sysfsRoot)

        var pcmInfo: OpaquePointer?
        guard snd_pcm_info_malloc(&pcmInfo) == 0, let pcmInfo else { return [] }
        defer { snd_pcm_info_free(pcmInfo) }
        var devices: [AudioDeviceInfo] = []
        var device: Int32 = -1
        while snd_ctl_pcm_next_device(ctl, &device) == 0, device >= 0 {
            snd_pcm_info_set_device(pcmInfo, UInt32(device))
            snd_pcm_info_set_subdevice(pcmInfo, 0)
            snd_pcm_info_set_stream(pcmInfo, SND_PCM_STREAM_CAPTURE)
            // Fails with ENOENT for a playback-only device.
            guard snd_ctl_pcm_info(ctl, pcmInfo) == 0 else { continue }
            devices.append(AudioDeviceInfo(
                name: AudioDeviceInfo.stableName(cardID: id, device: Int(device)), cardIndex: index, cardID: id,
                cardName: name, cardLongName: longName, device: Int(device),
                deviceName: text(snd_pcm_info_get_name(pcmInfo)), sysfsPath: sysfs))
        }
        return devices
    }

    /// The card's long name ("Loopback 1"), or nil when there is no such card.
    static func longName(ofCard index: Int) -> String? {
        var name: UnsafeMutablePointer<CChar>?
        guard snd_card_get_longname(Int32(index), &name) == 0, let name else { return nil }
        defer { free(name) }
        return String(cString: name)
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    private static func resolved(_ path: String) -> String? {
        return try? Posix.realPath(path)
    }
}
