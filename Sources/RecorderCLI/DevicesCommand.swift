import ArgumentParser
import AudioCapture
import FoundationEssentials
import Glibc
import Settings
import Shooting
import SystemSupport
import VideoCapture

/// `recorder devices`: every V4L2 node, what it can capture, and whether this user may open it;
/// then the microphones (ALSA capture devices), each with the camera it is built into.
struct DevicesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List cameras with their formats, sizes and frame rates.",
        discussion: """
        --listen SECONDS is the microphone check before an event: every microphone is opened at once and shows a live \
        level meter while you speak or clap, then each is judged as a take is (ok, silent: nothing above -45 dBFS, \
        clipping: at full scale for half of it or more). A microphone another program has open is named, with why.
        """)

    @OptionGroup var output: OutputOptions

    @Flag(name: .long, help: "Also list nodes that cannot capture (metadata, output, codec nodes) and formats recorder cannot read.")
    var all = false

    @Option(name: .long, parsing: .unconditional, help: ArgumentHelp("Listen to every microphone for this many seconds (1 to 600), with a live level meter, then judge each.",
                                            valueName: "seconds"),
            transform: { text in
                guard let seconds = Double(text), seconds.isFinite, (1...600).contains(seconds) else {
                    throw ValidationError("--listen takes seconds from 1 to 600 (got '\(text)'). Example: --listen 5.")
                }
                return seconds
            })
    var listen: Double?

    func run() throws {
        if let listen { return try listenToMicrophones(seconds: listen) }
        let devices = DeviceDiscovery.describeAll().filter { all || $0.isCapture || !$0.canOpen }
        let microphones = AudioDevices.list()
        // A USB camera's microphone is another interface of the same USB device; the first
        // capture node listed claims it (a UVC camera also has a metadata node).
        var cameraOfMicrophone: [String: String] = [:]
        for device in devices where device.isCapture {
            if let mic = AudioDevices.microphone(pairedWithCamera: device.path, among: microphones),
               cameraOfMicrophone[mic.name] == nil {
                cameraOfMicrophone[mic.name] = device.path
            }
        }
        if output.json {
            let microphoneOfCamera = Dictionary(cameraOfMicrophone.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            printJSON(devices.map { DeviceListing($0, microphone: microphoneOfCamera[$0.path]) })
            return
        }
        if devices.isEmpty {
            print("No V4L2 capture devices found. `recorder shoot --device testsrc` records the built-in test pattern.")
        }
        var captureIndex = 0
        for device in devices {
            let index = device.isCapture ? "[\(captureIndex)] " : ""
            if device.isCapture { captureIndex += 1 }
            print("\(index)\(device.path)  \(device.card.isEmpty ? "" : "\(device.card) ")\(device.driver.isEmpty ? "" : "(\(device.driver))")")
            if let stable = device.stableName { print("    by-id: \(stable)") }
            print("    access: \(device.canOpen ? "yes" : "no")\(device.problem.map { " - \($0)" } ?? "")")
            for format in device.formats where all || format.pixelFormat != nil {
                let supported = format.pixelFormat == nil ? " (not supported)" : ""
                let emulated = format.isEmulated ? " (emulated by libv4l)" : ""
                print("    \(format.fourcc) \(format.label)\(supported)\(emulated): \(format.sizeSummary)")
            }
        }
        printMicrophones(microphones, cameraOfMicrophone: cameraOfMicrophone)
    }

    /// `--listen`: a meter line per microphone, redrawn on a terminal five times a second (else one
    /// set of lines a second), then each one's verdict; exit 69 when none could be listened to.
    private func listenToMicrophones(seconds: Double) throws {
        let microphones = AudioDevices.list()
        guard !microphones.isEmpty else {
            throw RecorderError("no microphone found\(AudioDevices.permissionProblem().map { ": \($0)" } ?? ""). Plug one in (a USB camera's own counts) and run recorder devices to see it.",
                                kind: .unavailable)
        }
        let check = MicrophoneCheck(microphones)
        let live = !output.json && isatty(STDOUT_FILENO) == 1
        // Every line goes straight to the descriptor: a meter read through a pipe (`| tee`) must
        // arrive as it is drawn, not in one piece at the end.
        if !output.json {
            Descriptors.printOutput("listening to \(microphones.count) microphone(s) for \(String(cFormat: "%g", seconds)) s: speak, clap or play something\(live ? "" : " (a line each a second)")\n")
        }
        let start = MonotonicClock.nowMicroseconds()
        let end = start + Int64(seconds * 1_000_000)
        var drawn = 0, lastLine = start
        // Off a terminal a line stands for a whole second: it shows the loudest half-second in it,
        // so a short clap between two lines is not missed. Lines follow the clock, not a count of
        // waits, which a loaded machine stretches.
        var loudest: [Double?] = microphones.map { _ in nil }
        while MonotonicClock.nowMicroseconds() < end {
            usleep(200_000)
            var readings = check.readings()
            if live {
                // (up over the lines drawn last time, then each line again)
                var text = drawn > 0 ? "\u{1B}[\(drawn)A" : ""
                for reading in readings { text += "\r\u{1B}[2K" + Self.meterLine(reading) + "\n" }
                Descriptors.printOutput(text)
                drawn = readings.count
            } else if !output.json {
                for (i, reading) in readings.enumerated() {
                    if let peak = reading.peakDBFS { loudest[i] = max(loudest[i] ?? peak, peak) }
                }
                let now = MonotonicClock.nowMicroseconds()
                if now - lastLine >= 1_000_000 {
                    lastLine = now
                    for i in readings.indices { readings[i].peakDBFS = loudest[i] }
                    Descriptors.printOutput(readings.map { Self.meterLine($0) + "\n" }.joined())
                    loudest = microphones.map { _ in nil }
                }
            }
        }
        let results = check.finish()
        if output.json {
            printJSON(results, answersFailure: check.listening == 0)
        } else {
            var text = ""
            for reading in results {
                if let problem = reading.problem {
                    text += "\(reading.name)  \(reading.cardName): not listened to: \(problem)\n"
                } else if let verdict = reading.check {
                    let note = SoundCheck.note(verdict).map { ": \($0.replacing("take", with: "input"))" } ?? ""
                    text += "\(reading.name)  \(reading.cardName): \(verdict.result), loudest \(verdict.loudestDBFS) dBFS\(note)\n"
                }
            }
            Descriptors.printOutput(text)
        }
        if check.listening == 0 {
            let named = results.compactMap { r in r.problem.map { "\(r.name): \($0)" } }.joined(separator: "; ")
            throw RecorderError("no microphone could be listened to (\(named)). Close the program that has it (a running kiosk: stop it first), or check the permissions (the audio group).",
                                kind: .unavailable)
        }
    }

    /// `hw:CARD=Loopback,DEV=1  [##########··········]  -23.0 dBFS`: 20 cells from -60 to 0 dBFS.
    static func meterLine(_ reading: MicrophoneCheck.Reading) -> String {
        guard reading.problem == nil else { return "\(reading.name)  (not listened to: \(reading.problem ?? ""))" }
        let peak = reading.peakDBFS ?? AudioLevel.silence
        let cells = max(0, min(20, Int(((peak + 60) / 60 * 20).rounded())))
        let bar = String(repeating: "#", count: cells) + String(repeating: "·", count: 20 - cells)
        let value = peak <= AudioLevel.silence ? "  silence" : String(cFormat: "%6.1f dBFS", peak)
        return "\(reading.name)  [\(bar)]  \(value)\(peak >= SoundCheck.clippedAtDBFS ? "  CLIPPING" : "")"
    }

    /// "Microphones:", then one line each: stable name, card name, and the camera it belongs to.
    private func printMicrophones(_ microphones: [AudioDeviceInfo], cameraOfMicrophone: [String: String]) {
        guard !microphones.isEmpty else {
            print(AudioDevices.permissionProblem().map { "No microphone found: \($0)" } ?? "No microphone found.")
            return
        }
        print("Microphones:")
        for mic in microphones {
            let camera = cameraOfMicrophone[mic.name].map { " (microphone of \($0))" } ?? ""
            print("  \(mic.name)  \(mic.cardName)\(camera)")
        }
    }
}

/// The JSON shape of one device in `recorder devices --json`.
struct DeviceListing: Encodable {
    struct Format: Encodable {
        var fourcc: String
        var name: String?
        var description: String
        var emulated: Bool
        var sizes: String
    }

    var path: String
    var byId: String?
    var driver: String
    var card: String
    var capture: Bool
    var canOpen: Bool
    var problem: String?
    var formats: [Format]
    /// The stable ALSA name of the camera's own microphone, when it has one.
    var microphone: String?

    init(_ d: DeviceDescription, microphone: String? = nil) {
        path = d.path
        byId = d.stableName
        driver = d.driver
        card = d.card
        capture = d.isCapture
        canOpen = d.canOpen
        problem = d.problem
        formats = d.formats.map { Format(fourcc: $0.fourcc, name: $0.pixelFormat?.name, description: $0.label,
                                         emulated: $0.isEmulated, sizes: $0.sizeSummary) }
        self.microphone = microphone
    }
}
