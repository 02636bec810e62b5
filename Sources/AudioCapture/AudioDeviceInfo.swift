/// One ALSA capture device (a PCM device of a sound card with a capture substream), as
/// `recorder devices` lists it and `--audio` names it.
package struct AudioDeviceInfo: Sendable, Hashable {
    /// The stable ALSA name, `hw:CARD=<id>,DEV=<n>`: the card's id survives reboots and other
    /// cards coming and going, where its index does not.
    package var name: String
    /// The card's index now (`hw:N`), as /dev/snd/pcmC<N>D<device>c names it.
    package var cardIndex: Int
    /// The card's id: "Loopback", "C920".
    package var cardID: String
    /// The card's name: "Loopback", "HD Pro Webcam C920".
    package var cardName: String
    /// The card's long name: "HD Pro Webcam C920 at usb-0000:00:14.0-1, high speed".
    package var cardLongName: String
    /// The PCM device number on the card.
    package var device: Int
    /// The PCM device's own name: "USB Audio", "Loopback PCM".
    package var deviceName: String
    /// The card's device in sysfs, resolved (`/sys/class/sound/card<N>/device`):
    /// `/sys/devices/pci0000:00/.../usb1/1-1/1-1:1.3`; nil when it has none (a virtual card).
    package var sysfsPath: String?

    /// Every field as given (`AudioDevices` fills them from ALSA and sysfs; tests make their own).
    package init(name: String, cardIndex: Int, cardID: String, cardName: String, cardLongName: String,
                 device: Int, deviceName: String, sysfsPath: String?) {
        self.name = name
        self.cardIndex = cardIndex
        self.cardID = cardID
        self.cardName = cardName
        self.cardLongName = cardLongName
        self.device = device
        self.deviceName = deviceName
        self.sysfsPath = sysfsPath
    }

    /// The stable name of device `device` on the card with id `cardID`.
    package static func stableName(cardID: String, device: Int) -> String { "hw:CARD=\(cardID),DEV=\(device)" }
}
