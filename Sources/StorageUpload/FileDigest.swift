import FoundationEssentials
import SystemSupport
#if canImport(Glibc)
import Glibc
#endif
package import StoreValues

/// Size and checksums of a file, computed in one pass: SHA-256 for the metadata and
/// `x-amz-content-sha256`, MD5 for `Content-MD5` and the S3 ETag.
package struct FileDigest: Sendable, Codable, Equatable {
    package var size: Int64
    /// Lowercase hex.
    package var sha256: String
    /// Lowercase hex.
    package var md5: String
    /// Checksums of each part for a multipart upload, when computed.
    package var parts: PartDigests?
    /// The CRC-32 a ZIP archive names the file by (a gallery's Download all); nil in a digest
    /// taken before it was (an item queued by an older version).
    package var crc32: UInt32?

    package init(size: Int64, sha256: String, md5: String, parts: PartDigests? = nil, crc32: UInt32? = nil) {
        self.size = size
        self.sha256 = sha256
        self.md5 = md5
        self.parts = parts
        self.crc32 = crc32
    }

    /// Reads `path` once: its SHA-256, MD5 and CRC-32. With `partSize`, also the MD5 and SHA-256 of
    /// every part, so a multipart upload (and every resume of it) sends straight from the file
    /// without hashing again.
    package static func compute(path: String, partSize: Int64? = nil) throws(StorageError) -> FileDigest {
        var sha = MessageDigest(.sha256)
        var md5 = MessageDigest(.md5)
        var partSHA = MessageDigest(.sha256)
        var partMD5 = MessageDigest(.md5)
        var crc = CRC32()
        var inPart: Int64 = 0
        var parts = partSize.map { PartDigests(partSize: $0, md5: [], sha256: []) }
        let size = try FileChunks.forEach(path: path, offset: 0, length: nil) { chunk in
            sha.update(chunk)
            md5.update(chunk)
            crc.update(chunk)
            guard let partSize else { return }
            var rest = chunk
            while !rest.isEmpty {
                let take = Int(min(Int64(rest.count), partSize - inPart))
                let piece = UnsafeRawBufferPointer(rebasing: rest[0..<take])
                partSHA.update(piece)
                partMD5.update(piece)
                inPart += Int64(take)
                rest = UnsafeRawBufferPointer(rebasing: rest[take...])
                if inPart == partSize {
                    parts?.md5.append(partMD5.finish().hex)
                    parts?.sha256.append(partSHA.finish().hex)
                    inPart = 0
                }
            }
        }
        if inPart > 0 {
            parts?.md5.append(partMD5.finish().hex)
            parts?.sha256.append(partSHA.finish().hex)
        }
        return FileDigest(size: size, sha256: sha.finish().hex, md5: md5.finish().hex, parts: parts, crc32: crc.value)
    }

    /// The ETag S3 gives an object uploaded in parts of `partSize`: MD5 of the concatenated binary
    /// part MD5s, a dash, and the number of parts.
    package static func multipartETag(path: String, size: Int64, partSize: Int64) throws(StorageError) -> String {
        var partDigests: [[UInt8]] = []
        var offset: Int64 = 0
        var md5 = MessageDigest(.md5)
        while offset < size {
            let length = min(partSize, size - offset)
            _ = try FileChunks.forEach(path: path, offset: offset, length: length) { md5.update($0) }
            partDigests.append(md5.finish())
            offset += length
        }
        return multipartETag(partMD5s: partDigests)
    }

    static func multipartETag(partMD5s: [[UInt8]]) -> String {
        MessageDigest.hash(.md5, partMD5s.flatMap { $0 }).hex + "-\(partMD5s.count)"
    }

    /// Lowercase hex MD5 of bytes in memory.
    static func md5(_ bytes: [UInt8]) -> String { MessageDigest.hash(.md5, bytes).hex }

    /// Lowercase hex SHA-256 of bytes in memory.
    package static func sha256(_ bytes: [UInt8]) -> String { MessageDigest.hash(.sha256, bytes).hex }

    /// Hex digits as base64, for the `Content-MD5` header.
    static func base64(hex: String) -> String {
        Data(bytes(hex: hex)).base64EncodedString()
    }

    static func bytes(hex: String) -> [UInt8] {
        var out: [UInt8] = []
        var iterator = hex.utf8.makeIterator()
        while let hi = iterator.next(), let lo = iterator.next() {
            out.append(UInt8(nibble(hi) << 4 | nibble(lo)))
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8 {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): c - UInt8(ascii: "A") + 10
        default: 0
        }
    }
}

/// A running SHA-256 for callers outside this file, with a hex result.
package struct SHA256Stream: ~Copyable {
    private var hasher = MessageDigest(.sha256)

    package init() {}

    package mutating func update(_ bytes: UnsafeRawBufferPointer) { hasher.update(bytes) }

    package mutating func finalize() -> String { hasher.finish().hex }
}

/// Per-part checksums for one part size (lowercase hex, part 1 first).
package struct PartDigests: Sendable, Codable, Equatable {
    package var partSize: Int64
    package var md5: [String]
    package var sha256: [String]
}

/// Reads a file (or a range of it) in 1 MiB chunks; a failure in `body` stops the reading.
enum FileChunks {
    @discardableResult
    static func forEach(path: String, offset: Int64, length: Int64?,
                        _ body: (UnsafeRawBufferPointer) throws(StorageError) -> Void) throws(StorageError) -> Int64 {
        let fd = try LocalFiles.run("open", path) { () throws(Descriptors.Errno) in try Posix.open(path, O_RDONLY | O_CLOEXEC) }
        defer { Posix.closeAfterUse(fd) }
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunk, alignment: 16)
        defer { buffer.deallocate() }
        var position = offset
        var total: Int64 = 0
        while length.map({ total < $0 }) ?? true {
            let want = length.map { Int(min(Int64(chunk), $0 - total)) } ?? chunk
            let n = try LocalFiles.run("read", path) { () throws(Descriptors.Errno) in try Posix.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[0..<want]), at: position) }
            if n == 0 { break }
            try body(UnsafeRawBufferPointer(rebasing: buffer[0..<n]))
            position += Int64(n)
            total += Int64(n)
        }
        return total
    }
}
