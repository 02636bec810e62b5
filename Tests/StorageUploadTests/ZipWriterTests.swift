import Foundation
@testable import StorageUpload
import StoreValues
import Testing

/// The ZIP archives `recorder export` writes, read back by Python's zipfile (an independent
/// reader: its own CRC-32 check of every entry, ZIP64 included).
@Suite struct ZipWriterTests {
    /// Python's answer for `archive`: every entry's name, size and SHA-256, after `testzip()` (which
    /// checks each CRC), or the error it raised.
    static func pythonReads(_ archive: String) throws -> [String: Any] {
        let script = """
        import hashlib, json, sys, zipfile
        with zipfile.ZipFile(sys.argv[1]) as z:
            bad = z.testzip()
            print(json.dumps({"bad": bad, "zip64": any(i.extra for i in z.infolist()), "entries": [
                {"name": i.filename, "size": i.file_size, "method": i.compress_type, "utf8": bool(i.flag_bits & 0x800),
                 "sha256": hashlib.sha256(z.read(i)).hexdigest()} for i in z.infolist()]}))
        """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = ["-c", script, archive]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        let text = out.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0, let object = try JSONSerialization.jsonObject(with: text) as? [String: Any] else {
            Issue.record("python could not read \(archive): \(String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))")
            return [:]
        }
        return object
    }

    static func sha256(_ bytes: [UInt8]) -> String { FileDigest.sha256(bytes) }

    /// Info-ZIP's `unzip -t` (a second reader, stricter about headers): its exit status and words.
    static func unzipTests(_ archive: String) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/unzip")
        process.arguments = ["-t", archive]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    @Test func crc32MatchesTheStandardCheckValue() throws {
        var crc = CRC32()
        Array("123456789".utf8).withUnsafeBytes { crc.update($0) }
        #expect(crc.value == 0xCBF4_3926)
        // In pieces of every length from 1 to 300 bytes, at every alignment (the folding step
        // takes 128 bytes or more, sixteen at a time, the rest byte by byte): the same value.
        let bytes = (0..<70_001).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 11) }
        var whole = CRC32(), pieces = CRC32()
        bytes.withUnsafeBytes { whole.update($0) }
        var at = 0, step = 1
        while at < bytes.count {
            let end = min(at + step, bytes.count)
            bytes[at..<end].withUnsafeBytes { pieces.update($0) }
            at = end
            step = step % 300 + 1
        }
        #expect(whole.value == pieces.value)
        // And in pieces of 200 to 2,000 bytes at every alignment mod 64 (the wide fold, where the
        // processor has it, takes 512 bytes or more, 256 at a time, then 64, then 16).
        var wide = CRC32()
        (at, step) = (0, 200)
        while at < bytes.count {
            let end = min(at + step, bytes.count)
            bytes[at..<end].withUnsafeBytes { wide.update($0) }
            at = end
            step = step >= 2_000 ? 200 : step + 37
        }
        #expect(whole.value == wide.value)
        // Python's zlib, an independent reader.
        let file = NSTemporaryDirectory() + "recorder-crc-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: file) }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        python.arguments = ["-c", "import sys, zlib; print(zlib.crc32(open(sys.argv[1], 'rb').read()))", file]
        let out = Pipe()
        python.standardOutput = out
        try python.run()
        let said = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(UInt32(said.trimmingCharacters(in: .whitespacesAndNewlines)) == whole.value, "zlib says \(said)")
    }

    @Test(arguments: [false, true]) func anArchiveReadsBackEntryForEntry(zip64: Bool) throws {
        let directory = NSTemporaryDirectory() + "recorder-zip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // A file larger than one 1 MiB chunk and not a multiple of 8, bytes, an empty one, a UTF-8 name.
        let big = (0..<(3 << 20) + 5).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        try Data(big).write(to: URL(fileURLWithPath: directory + "/big.bin"))
        let archive = directory + "/event.zip"
        var zip = try ZipWriter(creating: archive, alwaysZip64: zip64)
        var written: [String: String] = [:]
        written["event/a/video.mp4"] = try zip.addFile(from: directory + "/big.bin", as: "event/a/video.mp4")
        written["event/a/post.json"] = try zip.add(Array("{\"caption\": \"Grüße 🎉\"}".utf8), as: "event/a/post.json")
        written["event/empty.txt"] = try zip.add([], as: "event/empty.txt")
        written["event/Grüße.txt"] = try zip.add(Array("hallo\n".utf8), as: "event/Grüße.txt")
        try zip.finish()

        let read = try Self.pythonReads(archive)
        #expect(read["bad"] is NSNull, "testzip found a bad CRC: \(read)")
        #expect(read["zip64"] as? Bool == zip64, "\(read)")
        let entries = read["entries"] as? [[String: Any]] ?? []
        #expect(entries.map { $0["name"] as? String ?? "" } == ["event/a/video.mp4", "event/a/post.json", "event/empty.txt", "event/Grüße.txt"])
        for entry in entries {
            let name = entry["name"] as? String ?? ""
            #expect(entry["sha256"] as? String == written[name], "\(name): what python read is what the writer said it wrote")
            #expect(entry["method"] as? Int == 0 && entry["utf8"] as? Bool == true, "\(entry)")
        }
        #expect(written["event/a/video.mp4"] == Self.sha256(big))
        let (status, said) = try Self.unzipTests(archive)
        #expect(status == 0 && said.contains("No errors detected"), "\(said)")
        #expect(entries.first?["size"] as? Int == big.count)
    }

    @Test func anArchiveIsNeverWrittenOverAndBadNamesAreRefused() throws {
        let directory = NSTemporaryDirectory() + "recorder-zip-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let archive = directory + "/taken.zip"
        try Data("mine".utf8).write(to: URL(fileURLWithPath: archive))
        #expect(throws: StorageError.self) { _ = try ZipWriter(creating: archive) }
        #expect(try String(contentsOfFile: archive, encoding: .utf8) == "mine")
        var zip = try ZipWriter(creating: directory + "/new.zip")
        for bad in ["", "/etc/passwd", "event/../../x"] {
            #expect(throws: StorageError.self, "\(bad)") { _ = try zip.add([1], as: bad) }
        }
        try zip.finish()
    }
}
