import ArgumentParser
import FoundationEssentials
import Glibc
import Settings
import Shooting
import SystemSupport
import Failures
import ShotValues

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
        let inventory = DeviceInventory.look(all: all)
        let devices = inventory.cameras
        if output.json {
            printJSON(devices)
            return
        }
        if devices.isEmpty {
            print("No V4L2 capture devices found. `recorder shoot --device testsrc` records the built-in test pattern.")
        }
        var captureIndex = 0
        for device in devices {
            let index = device.capture ? "[\(captureIndex)] " : ""
            if device.capture { captureIndex += 1 }
            print("\(index)\(device.path)  \(device.card.isEmpty ? "" : "\(device.card) ")\(device.driver.isEmpty ? "" : "(\(device.driver))")")
            if let stable = device.byId { print("    by-id: \(stable)") }
            print("    access: \(device.canOpen ? "yes" : "no")\(device.problem.map { " - \($0)" } ?? "")")
            for format in device.formats where all || format.name != nil {
                let supported = format.name == nil ? " (not supported)" : ""
                let emulated = format.emulated ? " (emulated by libv4l)" : ""
                print("    \(format.fourcc) \(format.description)\(supported)\(emulated): \(format.sizes)")
            }
        }
        printMicrophones(inventory)
    }

    /// `--listen`: a meter line per microphone, redrawn on a terminal five times a second (else one
    /// set of lines a second), then each one's verdict; exit 69 when none could be listened to.
    private func listenToMicrophones(seconds: Double) throws {
        let check: MicrophoneCheck
        switch MicrophoneCheck.everyMicrophone() {
        case .success(let opened): check = opened
        case .failure(let none):
            throw RecorderError(CLIFailure.noMicrophone(problem: none.problem))
        }
        let live = !output.json && Posix.isTerminal(STDOUT_FILENO)
        // Every line goes straight to the descriptor: a meter read through a pipe (`| tee`) must
        // arrive as it is drawn, not in one piece at the end.
        if !output.json {
            Descriptors.printOutput("listening to \(check.count) microphone(s) for \(String(cFormat: "%g", seconds)) s: speak, clap or play something\(live ? "" : " (a line each a second)")\n")
        }
        let start = MonotonicClock.nowMicroseconds()
        let end = start + Int64(seconds * 1_000_000)
        var drawn = 0, lastLine = start
        // Off a terminal a line stands for a whole second: it shows the loudest half-second in it,
        // so a short clap between two lines is not missed. Lines follow the clock, not a count of
        // waits, which a loaded machine stretches.
        var loudest = [Double?](repeating: nil, count: check.count)
        let pause = ClockWait(clock: SystemClock())
        while MonotonicClock.nowMicroseconds() < end {
            pause.wait(seconds: 0.2)
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
                    loudest = [Double?](repeating: nil, count: check.count)
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
                    let note = SoundCheck.note(verdict).map { ": \(CLIWords.note($0).replacing("take", with: "input"))" } ?? ""
                    text += "\(reading.name)  \(reading.cardName): \(verdict.result), loudest \(verdict.loudestDBFS) dBFS\(note)\n"
                }
            }
            Descriptors.printOutput(text)
        }
        if check.listening == 0 {
            let problems = results.reduce(into: [String: String]()) { named, r in named[r.name] = r.problem }
            throw RecorderError(CLIFailure.noMicrophoneListened(problems))
        }
    }

    /// `hw:CARD=Loopback,DEV=1  [##########··········]  -23.0 dBFS`: 20 cells from -60 to 0 dBFS.
    static func meterLine(_ reading: MicrophoneCheck.Reading) -> String {
        guard reading.problem == nil else { return "\(reading.name)  (not listened to: \(reading.problem ?? ""))" }
        let peak = reading.peakDBFS ?? SoundLevel.silence
        let cells = max(0, min(20, Int(((peak + 60) / 60 * 20).rounded())))
        let bar = String(repeating: "#", count: cells) + String(repeating: "·", count: 20 - cells)
        let value = peak <= SoundLevel.silence ? "  silence" : String(cFormat: "%6.1f dBFS", peak)
        return "\(reading.name)  [\(bar)]  \(value)\(peak >= SoundCheck.clippedAtDBFS ? "  CLIPPING" : "")"
    }

    /// "Microphones:", then one line each: stable name, card name, and the camera it belongs to.
    private func printMicrophones(_ inventory: DeviceInventory) {
        guard !inventory.microphones.isEmpty else {
            print(inventory.microphoneProblem.map { "No microphone found: \($0)" } ?? "No microphone found.")
            return
        }
        print("Microphones:")
        for mic in inventory.microphones {
            let camera = mic.camera.map { " (microphone of \($0))" } ?? ""
            print("  \(mic.name)  \(mic.cardName)\(camera)")
        }
    }
}
