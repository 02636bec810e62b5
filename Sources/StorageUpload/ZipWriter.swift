internal import COpenSSL
import Glibc
import SystemSupport
package import StoreValues

/// A ZIP archive written as a stream into a new file (`recorder export -o event.zip`).
///
/// Entries are stored, not deflated: videos and JPEGs are compressed already, and a stored entry
/// is one pass through the bytes. Each entry's CRC-32 and SHA-256 are taken as its bytes are
/// written (one 1 MiB chunk in memory at a time); the local header is written first with the size
/// known from the source and its CRC filled in once the data is down. Its records are `ZipRecords`'
/// (ZIP64 past 4 GiB and 65,535 entries, UTF-8 names), which Info-ZIP's unzip, Python's zipfile,
/// 7-Zip and the file managers read.
package struct ZipWriter: ~Copyable {
    private struct Entry {
        var name: [UInt8]
        var crc: UInt32
        var size: UInt64
        var offset: UInt64
    }

    package let path: String
    private let fd: Int32
    private var offset: UInt64 = 0
    private var entries: [Entry] = []
    private let stamp: ZipRecords.Stamp
    /// Every entry in ZIP64 form, whatever its size: lets the tests read that form back without
    /// writing 4 GiB.
    let alwaysZip64: Bool

    /// Creates `path`, which must not exist.
    package init(creating path: String) throws(StorageError) {
        try self.init(creating: path, alwaysZip64: false)
    }

    init(creating path: String, alwaysZip64: Bool) throws(StorageError) {
        self.path = path
        self.alwaysZip64 = alwaysZip64
        fd = try LocalFiles.run("create", path) { () throws(Descriptors.Errno) in try Posix.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644) }
        // Every entry carries the time the archive was made, as MS-DOS local time.
        var now = time_t(Glibc.time(nil)), parts = tm()
        localtime_r(&now, &parts)
        stamp = ZipRecords.Stamp(year: Int(parts.tm_year), month: Int(parts.tm_mon), day: Int(parts.tm_mday),
                                 hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    // `finish` syncs the archive before it is used; one dropped unfinished is removed by its caller.
    deinit {
        Posix.closeAfterUse(fd)
    }

    /// Adds the file at `source` as `name`; returns the SHA-256 of the bytes written (lowercase hex).
    package mutating func addFile(from source: String, as name: String) throws(StorageError) -> String {
        let size = try LocalFiles.run("stat", source) { () throws(Descriptors.Errno) in try Posix.status(of: source).size }
        return try add(name: name, size: UInt64(size)) { write throws(StorageError) in
            let copied = try FileChunks.forEach(path: source, offset: 0, length: size) { chunk throws(StorageError) in try write(chunk) }
            guard copied == size else {
                throw StorageError(.mismatch, .changedWhileArchived(source: source, read: Int64(copied), size: Int64(size)), retryable: false)
            }
        }
    }

    /// Adds `bytes` as `name`; returns their SHA-256 (lowercase hex).
    package mutating func add(_ bytes: [UInt8], as name: String) throws(StorageError) -> String {
        try add(name: name, size: UInt64(bytes.count)) { write throws(StorageError) in
            var failure: StorageError?
            bytes.withUnsafeBytes { chunk in
                do throws(StorageError) { try write(chunk) } catch { failure = error }
            }
            if let failure { throw failure }
        }
    }

    private mutating func add(name: String, size: UInt64,
                              _ body: ((UnsafeRawBufferPointer) throws(StorageError) -> Void) throws(StorageError) -> Void) throws(StorageError) -> String {
        let nameBytes = try ZipRecords.name(name)
        let start = offset
        let zip64 = alwaysZip64 || size >= ZipRecords.sizeLimit
        try write(ZipRecords.localHeader(name: nameBytes, crc: 0, size: size, stamp: stamp, zip64: zip64))
        var crc = CRC32()
        var sha = SHA256Stream()
        var written: UInt64 = 0
        try body { chunk throws(StorageError) in
            crc.update(chunk)
            sha.update(chunk)
            try write(chunk)
            written += UInt64(chunk.count)
        }
        guard written == size else {
            throw StorageError(.mismatch, .archiveEntryCutShort(name: name, written: Int64(written), size: Int64(size)), retryable: false)
        }
        let value = crc.value
        let fd = self.fd
        try LocalFiles.run("write", path) { () throws(Descriptors.Errno) in try Posix.writeAll(fd, ZipRecords.bytes(ofCRC: value), at: Int64(start + 14)) }
        entries.append(Entry(name: nameBytes, crc: value, size: size, offset: start))
        return sha.finalize()
    }

    /// Writes the central directory and the end records, syncs the file and closes it.
    package consuming func finish() throws(StorageError) {
        let directoryStart = offset
        for entry in entries {
            try write(ZipRecords.centralRecord(name: entry.name, crc: entry.crc, size: entry.size, offset: entry.offset, stamp: stamp,
                                               bigSize: alwaysZip64 || entry.size >= ZipRecords.sizeLimit,
                                               bigOffset: alwaysZip64 || entry.offset >= ZipRecords.sizeLimit))
        }
        try write(ZipRecords.end(count: UInt64(entries.count), directoryStart: directoryStart, directorySize: offset - directoryStart,
                                 zip64: alwaysZip64))
        try LocalFiles.run("fsync", path) { () throws(Descriptors.Errno) in try Posix.fsync(fd) }
    }

    private mutating func write(_ bytes: [UInt8]) throws(StorageError) {
        let fd = self.fd
        try LocalFiles.run("write", path) { () throws(Descriptors.Errno) in try Posix.writeAll(fd, bytes) }
        offset += UInt64(bytes.count)
    }

    private mutating func write(_ chunk: UnsafeRawBufferPointer) throws(StorageError) {
        let fd = self.fd
        try LocalFiles.run("write", path) { () throws(Descriptors.Errno) in try Posix.writeAll(fd, chunk) }
        offset += UInt64(chunk.count)
    }
}
