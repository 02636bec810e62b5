import FoundationEssentials
import SystemSupport
import Glibc
import StoreValues

/// The on-disk record of a multipart upload in progress: which upload, how it is cut, and the ETag
/// and MD5 of every part the store has acknowledged. Rewritten durably after each part, so a
/// killed upload resumes with the parts it has and completes from this list (not ListParts).
struct MultipartJournal: Codable, Equatable {
    struct Part: Codable, Equatable {
        var number: Int
        var etag: String
        /// Lowercase hex MD5 of the part's bytes.
        var md5: String
    }

    var key: String
    var uploadID: String
    var partSize: Int64
    var fileSize: Int64
    var sha256: String
    /// Acknowledged parts, in part-number order.
    private(set) var parts: [Part] = []

    var partCount: Int { Int((fileSize + partSize - 1) / partSize) }

    func part(_ number: Int) -> Part? { parts.first { $0.number == number } }

    mutating func record(_ part: Part) {
        parts.removeAll { $0.number == part.number }
        parts.append(part)
        parts.sort { $0.number < $1.number }
    }

    var missingParts: [Int] { (1...max(partCount, 1)).filter { part($0) == nil } }

    /// The ETag S3 will give the finished object.
    var expectedETag: String {
        FileDigest.multipartETag(partMD5s: (1...partCount).map { FileDigest.bytes(hex: part($0)?.md5 ?? "") })
    }

    static func load(_ path: String) -> MultipartJournal? {
        guard let data = FileSystem.dataIfReadable(path) else { return nil }
        return try? JSONDecoder().decode(MultipartJournal.self, from: data)
    }

    func save(_ path: String) throws(StorageError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(self) else {
            throw StorageError(.configuration, .cannotEncodeJournal, retryable: false)
        }
        try LocalFiles.writeDurably(Array(data), to: path)
    }

    static func remove(_ path: String) {
        // Best effort, the unlink and its sync: a journal left behind, or a removal the disk
        // forgets, names an upload the store no longer has, which the next attempt finds out and
        // starts again; nothing is lost.
        try? Posix.unlink(path)
        try? LocalFiles.syncDirectory(of: path)
    }
}
