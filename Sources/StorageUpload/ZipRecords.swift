package import StoreValues
internal import CZlib

/// The records of a ZIP archive whose entries are stored, not deflated (APPNOTE 6.3.10), as bytes:
/// what `ZipWriter` writes into a file and what a streamed archive (`PostArchive`) computes. Every
/// field is a function of its arguments: the same entries make the same bytes, so an archive sent
/// again from its middle (an HTTP range) is the one sent before. Names are UTF-8 (flag bit 11);
/// sizes and offsets past 4 GiB, and more than 65,535 entries, take the ZIP64 forms (4.5.3, 4.3.14).
package enum ZipRecords {
    /// An entry's time and date as MS-DOS keeps them (two-second steps, years 1980-2107).
    package struct Stamp: Sendable, Equatable {
        package var time: UInt16
        package var date: UInt16

        package init(time: UInt16, date: UInt16) {
            self.time = time
            self.date = date
        }

        /// The stamp of a moment's calendar fields (as `tm`: years since 1900, months from 0).
        package init(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) {
            time = UInt16(hour) << 11 | UInt16(minute) << 5 | UInt16(second / 2)
            date = UInt16(min(max(year - 80, 0), 127)) << 9 | UInt16(month + 1) << 5 | UInt16(day)
        }
    }

    /// An entry's size from which its local and central records carry it in the ZIP64 field.
    package static let sizeLimit: UInt64 = 0xFFFF_FFFF

    /// The name as an archive holds it, or why it cannot be one (empty, too long, absolute, or
    /// climbing out with `..`).
    package static func name(_ name: String) throws(StorageError) -> [UInt8] {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 0xFFFF, !name.hasPrefix("/"), !name.split(separator: "/").contains("..") else {
            throw StorageError(.mismatch, .notAnArchiveName(name), retryable: false)
        }
        return bytes
    }

    /// An entry's local header, before its bytes: its CRC-32 at bytes 14..<18.
    package static func localHeader(name: [UInt8], crc: UInt32, size: UInt64, stamp: Stamp, zip64: Bool) -> [UInt8] {
        var header = Fields()
        header.u32(0x0403_4b50)
        header.u16(zip64 ? 45 : 20)
        header.u16(0x0800)
        header.u16(0)
        header.u16(stamp.time)
        header.u16(stamp.date)
        header.u32(crc)
        header.u32(zip64 ? 0xFFFF_FFFF : UInt32(size))
        header.u32(zip64 ? 0xFFFF_FFFF : UInt32(size))
        header.u16(UInt16(name.count))
        header.u16(zip64 ? 20 : 0)
        header.bytes += name
        if zip64 {
            header.u16(0x0001)
            header.u16(16)
            header.u64(size)
            header.u64(size)
        }
        return header.bytes
    }

    /// An entry's record in the central directory; `bigSize`, `bigOffset`: its ZIP64 fields.
    package static func centralRecord(name: [UInt8], crc: UInt32, size: UInt64, offset: UInt64, stamp: Stamp,
                                      bigSize: Bool, bigOffset: Bool) -> [UInt8] {
        var extra = Fields()
        if bigSize || bigOffset {
            extra.u16(0x0001)
            extra.u16(UInt16((bigSize ? 16 : 0) + (bigOffset ? 8 : 0)))
            if bigSize { extra.u64(size); extra.u64(size) }
            if bigOffset { extra.u64(offset) }
        }
        var record = Fields()
        record.u32(0x0201_4b50)
        record.u16(3 << 8 | 45)  // made by Unix, ZIP 4.5
        record.u16(bigSize || bigOffset ? 45 : 20)
        record.u16(0x0800)
        record.u16(0)
        record.u16(stamp.time)
        record.u16(stamp.date)
        record.u32(crc)
        record.u32(bigSize ? 0xFFFF_FFFF : UInt32(size))
        record.u32(bigSize ? 0xFFFF_FFFF : UInt32(size))
        record.u16(UInt16(name.count))
        record.u16(UInt16(extra.bytes.count))
        record.u16(0)  // comment
        record.u16(0)  // disk
        record.u16(0)  // internal attributes
        record.u32(UInt32(0o100644) << 16)  // a regular file, rw-r--r--
        record.u32(bigOffset ? 0xFFFF_FFFF : UInt32(offset))
        record.bytes += name + extra.bytes
        return record.bytes
    }

    /// The end of the archive: the end of central directory record, after the ZIP64 one and its
    /// locator when `zip64` or when the counts or offsets need them.
    package static func end(count: UInt64, directoryStart: UInt64, directorySize: UInt64, zip64 always: Bool) -> [UInt8] {
        var end = Fields()
        if always || count >= 0xFFFF || directoryStart >= 0xFFFF_FFFF || directorySize >= 0xFFFF_FFFF {
            let recordStart = directoryStart + directorySize
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
        return end.bytes
    }

    /// A CRC-32 as the four little-endian bytes a record holds it in.
    package static func bytes(ofCRC crc: UInt32) -> [UInt8] {
        var field = Fields()
        field.u32(crc)
        return field.bytes
    }

    /// Little-endian fields, as ZIP stores them.
    private struct Fields {
        var bytes: [UInt8] = []
        mutating func u16(_ v: UInt16) { bytes += [UInt8(v & 0xFF), UInt8(v >> 8)] }
        mutating func u32(_ v: UInt32) { for i in 0..<4 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt32(i)))) } }
        mutating func u64(_ v: UInt64) { for i in 0..<8 { bytes.append(UInt8(truncatingIfNeeded: v >> (8 * UInt64(i)))) } }
    }
}

/// CRC-32 as ZIP (and gzip, PNG) uses it: polynomial 0xEDB88320, reflected. A host's Download all
/// checks every post it sends whole against it, so it must run at memory speed.
package struct CRC32: Sendable {
    // Where the processor has carry-less multiplication, sixteen bytes folded a step: in 64-byte
    // registers with VPCLMULQDQ (30 GB/s from memory on this machine's cores), else four lanes of
    // sixteen (13 GB/s); without it, zlib's braided table (4.2 GB/s; our own table sliced by sixteen,
    // 2.5 GB/s). It was a third of `recorder serve`'s time in a Download all (perf), and a sixth
    // with the four lanes.
    private enum Way { case wide, folds, table }
    private static let way: Way = czlib_has_wide_clmul() != 0 ? .wide : czlib_has_clmul() != 0 ? .folds : .table
    private var crc: UInt = 0

    package init() {}

    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        let start = base.assumingMemoryBound(to: UInt8.self)
        crc = switch Self.way {
        case .wide: czlib_crc32_wide_clmul(crc, start, bytes.count)
        case .folds: czlib_crc32_clmul(crc, start, bytes.count)
        case .table: crc32_z(crc, start, bytes.count)
        }
    }

    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    package var value: UInt32 { UInt32(truncatingIfNeeded: crc) }

    /// A CRC-32 as 8 lowercase hex digits (how a post's metadata keeps it).
    package static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 8 - digits.count) + digits
    }

    /// The CRC-32 in `text` when it is 8 lowercase hex digits; nil otherwise.
    package static func value(hex text: String) -> UInt32? {
        guard text.utf8.count == 8, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return UInt32(text, radix: 16)
    }
}
