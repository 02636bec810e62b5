import Foundation
import StorageUpload
import Testing
import StoreValues

/// The local directory's streamed reads (a host's Download all from a shared directory): the
/// pieces of a range, read back against the file itself.
@Suite struct LocalObjectStreamTests {
    private func store() throws -> (LocalDirectoryBackend, String) {
        let root = NSTemporaryDirectory() + "store-\(UUID().uuidString)"
        let store = LocalDirectoryBackend(root: root)
        try store.prepare()
        return (store, root)
    }

    /// Every piece of `stream`, `limit` bytes at a time.
    private func pieces(_ stream: any ObjectStream, limit: Int) throws -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        while let piece = try stream.next(limit: limit) { pieces.append(piece) }
        return pieces
    }

    @Test func aWholeObjectAndAMiddleRangeComeAsTheFileHoldsThem() throws {
        let (store, root) = try store()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try store.write((0..<(3 << 20) + 5).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 11) }, key: "videos/x.mp4", contentType: "video/mp4")
        let file = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "\(root)/videos/x.mp4")))
        let whole = try pieces(try #require(try store.stream(key: "videos/x.mp4", range: 0...Int64(file.count - 1))), limit: 1 << 20)
        #expect(whole.map(\.count) == [1 << 20, 1 << 20, 1 << 20, 5])
        #expect(Array(whole.joined()) == file)
        let middle = try pieces(try #require(try store.stream(key: "videos/x.mp4", range: 1_000_001...2_500_000)), limit: 1 << 20)
        #expect(middle.map(\.count) == [1 << 20, 1_500_000 - (1 << 20)])
        #expect(Array(middle.joined()) == Array(file[1_000_001...2_500_000]))
    }

    /// A range past a shorter object's end (the post changed): its bytes, then the end; a range
    /// wholly past it, the store's error; nothing there, nil.
    @Test func aShorterObjectEndsTheStreamEarly() throws {
        let (store, root) = try store()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        try store.write(bytes, key: "videos/x.mp4", contentType: "video/mp4")
        let stream = try #require(try store.stream(key: "videos/x.mp4", range: 50_000...199_999))
        #expect(try stream.next(limit: 1 << 20) == Array(bytes[50_000...]))
        #expect(try stream.next(limit: 1 << 20) == nil)
        let error = #expect(throws: StorageError.self) { try store.stream(key: "videos/x.mp4", range: 100_000...199_999) }
        #expect(error?.kind == .mismatch, "\(String(describing: error))")
        #expect(try store.stream(key: "videos/none.mp4", range: 0...9) == nil)
    }
}
