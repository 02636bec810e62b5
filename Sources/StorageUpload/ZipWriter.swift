internal import COpenSSL
import Glibc
import SystemSupport
package import StoreValues

/// A ZIP archive written as a stream into a new file (`recorder export -o event.zip`).
///
/// Entries are stored, not deflated: videos and JPEGs are compressed already, and a stored entry
/// is one pass through the bytes. Each entry's CRC-32 and SHA-256 are taken as its bytes are
/// written (one 1 MiB chunk in memory at a time); the local header is written first with the size
/// known from the source and its CRC filled in once the data is down. Sizes and offsets past 4 GiB,
/// and more than 65,535 entries, use the ZIP64 forms (APPNOTE 6.3.10, 4.5.3 and 4.3.14), which
/// Info-ZIP's unzip, Python's zipfile, 7-Zip and the file managers read. Names are UTF-8 (flag bit 11).
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
    private let time: UInt16, date: UInt16
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
        time = UInt16(parts.tm_hour) << 11 | UInt16(parts.tm_min) << 5 | UInt16(parts.tm_sec / 2)
        date = UInt16(max(parts.tm_year - 80, 0)) << 9 | UInt16(parts.tm_mon + 1) << 5 | UInt16(parts.tm_mday)
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
        let nameBytes = Array(name.utf8)
        guard !nameBytes.isEmpty, nameBytes.count <= 0xFFFF, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
            throw StorageError(.mismatch, .notAnArchiveName(name), retryable: false)
        }
        let start = offset
        let zip64 = alwaysZip64 || size >= 0xFFFF_FFFF
        var header = ZipBytes()
        header.u32(0x0403_4b50)
        header.u16(zip64 ? 45 : 20)
        header.u16(0x0800)
        header.u16(0)
        header.u16(time)
        header.u16(date)
        header.u32(0)  // the CRC-32, written once known
        header.u32(zip64 ? 0xFFFF_FFFF : UInt32(size))
        header.u32(zip64 ? 0xFFFF_FFFF : UInt32(size))
        header.u16(UInt16(nameBytes.count))
        header.u16(zip64 ? 20 : 0)
        header.bytes += nameBytes
        if zip64 {
            header.u16(0x0001)
            header.u16(16)
            header.u64(size)
            header.u64(size)
        }
        try write(header.bytes)
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
        var field = ZipBytes()
        field.u32(value)
        let fd = self.fd
        try LocalFiles.run("write", path) { () throws(Descriptors.Errno) in try Posix.writeAll(fd, field.bytes, at: Int64(start + 14)) }
        entries.append(Entry(name: nameBytes, crc: value, size: size, offset: start))
        return sha.finalize()
    }

    /// Writes the central directory and the end records, syncs the file and closes it.
    package consuming func finish() throws(StorageError) {
        let directoryStart = offset
        for entry in entries {
            let bigSize = alwaysZip64 || entry.size >= 0xFFFF_FFFF
            let bigOffset = alwaysZip64 || entry.offset >= 0xFFFF_FFFF
            var extra = ZipBytes()
            if bigSize || bigOffset {
                extra.u16(0x0001)
                extra.u16(UInt16((bigSize ? 16 : 0) + (bigOffset ? 8 : 0)))
                if bigSize { extra.u64(entry.size); extra.u64(entry.size) }
                if bigOffset { extra.u64(entry.offset) }
            }
            var record = ZipBytes()
            record.u32(0x0201_4b50)
            record.u16(3 << 8 | 45)  // made by Unix, ZIP 4.5
            record.u16(bigSize || bigOffset ? 45 : 20)
            record.u16(0x0800)
            record.u16(0)
            record.u16(time)
            record.u16(date)
            record.u32(entry.crc)
            record.u32(bigSize ? 0xFFFF_FFFF : UInt32(entry.size))
            record.u32(bigSize ? 0xFFFF_FFFF : UInt32(entry.size))
            record.u16(UInt16(entry.name.count))
            record.u16(UInt16(extra.bytes.count))
            record.u16(0)  // comment
            record.u16(0)  // disk
            record.u16(0)  // internal attributes
            record.u32(UInt32(0o100644) << 16)  // a regular file, rw-r--r--
            record.u32(bigOffset ? 0xFFFF_FFFF : UInt32(entry.offset))
            record.bytes += entry.name + extra.bytes
            try write(record.bytes)
        }
        let directorySize = offset - directoryStart
        let count = UInt64(entries.count)
        var end = ZipBytes()
        if alwaysZip64 || count >= 0xFFFF || directoryStart >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF {
            let recordStart = offset
            end.u32(0x0606_4b50)
            end.u64(44)
            end.u16(3 << 8 | 45)
            end.u16(45)
            end.u32(0)
            end.u32(0)
            end.u64(count)
            end.u64(count)
            end.u64(directorySize)
            end.u64(directoryStart)
            end.u32(0x0706_4b50)
            end.u32(0)
            end.u64(recordStart)
            end.u32(1)
            end.u32(0x0605_4b50)
            end.u16(0)
            end.u16(0)
            end.u16(0xFFFF)
            end.u16(0xFFFF)
            end.u32(0xFFFF_FFFF)
            end.u32(0xFFFF_FFFF)
            end.u16(0)
        } else {
            end.u32(0x0605_4b50)
            end.u16(0)
            end.u16(0)
            end.u16(UInt16(count))
            end.u16(UInt16(count))
            end.u32(UInt32(directorySize))
            end.u32(UInt32(directoryStart))
            end.u16(0)
        }
        try write(end.bytes)
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

/// Little-endian fields, as ZIP stores them.
private struct ZipBytes {
    var bytes: [UInt8] = []
    mutating func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
    mutating func u32(_ v: UInt32) { for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
    mutating func u64(_ v: UInt64) { for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
}

/// CRC-32 as ZIP (and gzip, PNG) uses it: polynomial 0xEDB88320, reflected, eight bytes a step
/// ("slicing by 8").
struct CRC32 {
    private static let tables: [[UInt32]] = {
        var tables = [[UInt32]](repeating: [UInt32](repeating: 0, count: 256), count: 8)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            tables[0][i] = c
        }
        for i in 0..<256 {
            for t in 1..<8 { tables[t][i] = (tables[t - 1][i] >> 8) ^ tables[0][Int(tables[t - 1][i] & 0xFF)] }
        }
        return tables
    }()

    private var crc: UInt32 = 0xFFFF_FFFF

    mutating func update(_ bytes: UnsafeRawBufferPointer) {
        var c = crc
        Self.tables.withUnsafeBufferPointer { t in
            let t0 = t[0], t1 = t[1], t2 = t[2], t3 = t[3], t4 = t[4], t5 = t[5], t6 = t[6], t7 = t[7]
            var i = 0
            let n = bytes.count
            while i + 8 <= n {
                let low = c ^ (UInt32(bytes[i]) | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2]) << 16 | UInt32(bytes[i + 3]) << 24)
                c = t7[Int(low & 0xFF)] ^ t6[Int((low >> 8) & 0xFF)] ^ t5[Int((low >> 16) & 0xFF)] ^ t4[Int(low >> 24)]
                    ^ t3[Int(bytes[i + 4])] ^ t2[Int(bytes[i + 5])] ^ t1[Int(bytes[i + 6])] ^ t0[Int(bytes[i + 7])]
                i += 8
            }
            while i < n {
                c = t0[Int((c ^ UInt32(bytes[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
        }
        crc = c
    }

    var value: UInt32 { crc ^ 0xFFFF_FFFF }
}
