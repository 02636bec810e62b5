import Glibc
import Testing
@testable import MediaEncoder
import VideoCapture
import MediaValues

/// An initialiser that fails part way must free what it allocated before the failure: no deinit
/// runs for a half-built object. Each case fails a real libavformat/libx264 call many times, in a
/// child process of its own (other tests allocate in parallel in this one), and checks that the
/// process's data segment did not grow with the number of attempts.
@Suite struct FailedInitialisationTests {
    @Test func aRecorderWhoseFileCannotBeCreatedLeaksNothing() async {
        await #expect(processExitsWith: .success) {
            let input = CaptureFormat(pixelFormat: .yu12, width: 64, height: 48, frameRate: FrameRate(30))
            // An AVPacket alone is over 100 bytes: a leak per attempt would be 2 MB or more here.
            let grew = failedInitialisationGrowth(attempts: 20_000) {
                _ = try MP4Encoder(path: "/nonexistent-dir/shot.mp4", input: input, settings: EncoderSettings())
            }
            if grew > 1 << 20 { print("the data segment grew by \(grew) bytes"); exit(1) }
        }
    }

    @Test func aRecorderWhoseEncoderLibx264RefusesLeaksNothing() async {
        await #expect(processExitsWith: .success) {
            let input = CaptureFormat(pixelFormat: .yu12, width: 64, height: 48, frameRate: FrameRate(30))
            let path = "/tmp/recorder-leak-test-\(getpid()).mp4"
            defer { unlink(path) }
            // The file is open and the packet allocated when libx264 refuses the preset.
            let grew = failedInitialisationGrowth(attempts: 12_000) {
                _ = try MP4Encoder(path: path, input: input, settings: EncoderSettings(preset: "no-such-preset"))
            }
            if grew > 1 << 20 { print("the data segment grew by \(grew) bytes"); exit(1) }
        }
    }
}

/// Bytes the data segment grew over `attempts` failed calls (after a warm-up round, which
/// allocates FFmpeg's one-time tables). Exits 2 if a call does not fail, 4 if nothing can be measured.
private func failedInitialisationGrowth(attempts: Int, _ attempt: () throws -> Void) -> Int {
    do { try FFmpegLibraries.load() } catch { print("\(error)"); exit(3) }
    func once() {
        do { try attempt() } catch { return }
        print("the initialiser did not fail")
        exit(2)
    }
    for _ in 0..<200 { once() }
    let before = dataSegmentBytes()
    for _ in 0..<attempts { once() }
    return dataSegmentBytes() - before
}

/// The "data" field of /proc/self/statm (heap and anonymous mappings), in bytes. A measurement
/// that cannot be made exits 4: a leak test that reads nothing must fail, not pass.
private func dataSegmentBytes() -> Int {
    func cannotMeasure(_ why: String) -> Never {
        print("cannot measure the data segment: \(why)")
        exit(4)
    }
    guard let file = fopen("/proc/self/statm", "r") else { cannotMeasure("/proc/self/statm: \(String(cString: strerror(errno)))") }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    guard fgets(&line, 256, file) != nil else { cannotMeasure("/proc/self/statm is empty") }
    let values = String(cString: line).split(separator: " ").map { Int($0.filter(\.isNumber)) }
    // size resident shared text lib data dt: the data field is the sixth.
    guard values.count >= 6, let pages = values[5], pages > 0 else { cannotMeasure("unexpected statm line: \(String(cString: line))") }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
}
