import Foundation
import Testing

/// The binary must not link all of Foundation: its ICU data alone is 50 MB. Swift records the
/// libraries each object needs in `.swift1_autolink_entries`; one `import Foundation` in any module
/// the binary is made of (or a dependency's default trait, as Hummingbird's "FullFoundation") puts
/// `-lFoundation` there. The release binary's size is measured by `Benchmarks/startup.sh`.
@Suite struct LeanBinaryTests {
    static let modules = ["SystemSupport", "MailValues", "MediaValues", "StoreValues", "ShotValues", "PreflightValues", "Failures",
                          "VideoCapture", "AudioCapture", "MediaEncoder", "StorageUpload", "TriggerInput", "ShareCode",
                          "Settings", "DurableFiles", "Shooting", "Publishing", "Library", "Posting", "Preflight",
                          "KioskWords", "KioskHTTP", "KioskState", "KioskService", "RecorderCLI", "recorder", "Hummingbird", "HummingbirdCore"]

    @Test func noModuleOfTheBinaryLinksFullFoundation() throws {
        let buildDirectory = URL(fileURLWithPath: try Tools.recorderBinary()).resolvingSymlinksInPath().deletingLastPathComponent().path
        var checked = 0
        var offenders: [String] = []
        for module in Self.modules {
            let directory = "\(buildDirectory)/\(module).build"
            let objects = try #require(try? FileManager.default.contentsOfDirectory(atPath: directory),
                                       "no objects for \(module) in \(directory): build with `swift build` first")
                .filter { $0.hasSuffix(".o") }
            #expect(!objects.isEmpty, "no objects for \(module) in \(directory)")
            for object in objects {
                let entries = try Tools.run("readelf", ["-p", ".swift1_autolink_entries", "\(directory)/\(object)"])
                try #require(entries.status == 0, "readelf failed on \(object): \(entries.stderr)")
                let libraries = entries.stdout.split(whereSeparator: \.isWhitespace).map(String.init)
                if let bad = libraries.first(where: { ["-lFoundation", "-lFoundationInternationalization", "-l_FoundationICU"].contains($0) }) {
                    offenders.append("\(module)/\(object) (\(bad))")
                }
                checked += 1
            }
        }
        #expect(checked > 50, "only \(checked) objects checked")
        #expect(offenders.isEmpty, "these link all of Foundation: \(offenders.prefix(10).joined(separator: ", "))")
    }
}
