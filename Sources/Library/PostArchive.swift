package import FoundationEssentials
package import Publishing
package import Failures
import Glibc
import StorageUpload
import StoreValues
import SystemSupport

/// A gallery's posts as one ZIP archive, read from the store as it is sent (`PostArchive.Reader`):
/// no file on the server, its length known before the first byte, and the same bytes for every
/// request of the same posts, so a download cut short is resumed with a Range.
///
/// For that every byte is decided by the posts alone: entries are stored (videos do not compress),
/// their sizes come from the metadata, their times from when each post was made (UTC), and each
/// entry's CRC-32 is known before its bytes are sent, which a local header and the central
/// directory need: the booth puts it in the post's metadata (`PostMetadata.crc32`); for a post
/// from before that it is computed once from the store's copy and kept there (`sums/<id>.json`).
/// No data descriptors: a range that starts past the first entries needs nothing sent before it.
package struct PostArchive: Sendable {
    /// One file of the archive.
    package struct Member: Sendable, Equatable {
        /// Its name in the archive (`event/001 - caption.mp4`).
        package var name: String
        /// Where its bytes are in the store.
        package var key: String
        /// The post's id (the gallery's token for its reel): where a computed CRC-32 is kept.
        package var id: String
        package var size: Int64
        package var sha256: String
        /// Its CRC-32, when the metadata has it; else found when first needed.
        package var crc32: UInt32?
        /// RFC 3339: the entry's time.
        package var createdAt: String

        package init(name: String, key: String, id: String, size: Int64, sha256: String, crc32: UInt32?, createdAt: String) {
            (self.name, self.key, self.id, self.size, self.sha256, self.crc32, self.createdAt) = (name, key, id, size, sha256, crc32, createdAt)
        }
    }

    package let members: [Member]
    /// Each member's name as bytes, its time, and where its local header starts.
    let names: [[UInt8]]
    let stamps: [ZipRecords.Stamp]
    let offsets: [UInt64]
    let headerLengths: [UInt64]
    let directoryStart: UInt64
    /// The central directory and the end records.
    let tailLength: UInt64
    /// The archive's length in bytes (`Content-Length`).
    package let length: UInt64
    /// Names the archive's bytes: the same posts, the same value (an HTTP entity tag, quoted).
    package let etag: String

    package init(members: [Member]) throws(RecorderError) {
        self.members = members
        var names: [[UInt8]] = [], stamps: [ZipRecords.Stamp] = [], offsets: [UInt64] = [], headers: [UInt64] = []
        var offset: UInt64 = 0
        var directory: UInt64 = 0
        var tag = "recorder archive 1\n"
        for member in members {
            let name: [UInt8]
            do throws(StorageError) { name = try ZipRecords.name(member.name) } catch { throw .gallery(.cannotRead(error)) }
            let stamp = Self.stamp(member.createdAt)
            let size = UInt64(max(member.size, 0))
            let header = UInt64(ZipRecords.localHeader(name: name, crc: 0, size: size, stamp: stamp, zip64: size >= ZipRecords.sizeLimit).count)
            directory += UInt64(ZipRecords.centralRecord(name: name, crc: 0, size: size, offset: offset, stamp: stamp,
                                                         bigSize: size >= ZipRecords.sizeLimit, bigOffset: offset >= ZipRecords.sizeLimit).count)
            names.append(name)
            stamps.append(stamp)
            offsets.append(offset)
            headers.append(header)
            offset += header + size
            tag += "\(member.name)\t\(member.key)\t\(member.size)\t\(member.sha256)\n"
        }
        let end = UInt64(ZipRecords.end(count: UInt64(members.count), directoryStart: offset, directorySize: directory, zip64: false).count)
        (self.names, self.stamps, self.offsets, headerLengths) = (names, stamps, offsets, headers)
        directoryStart = offset
        tailLength = directory + end
        length = offset + directory + end
        etag = "\"" + String(FileDigest.sha256(Array(tag.utf8)).prefix(32)) + "\""
    }

    /// The members of a gallery's archive: its reel first when it has one, then its posts oldest
    /// first, numbered, each named after its caption (or the event and its day), under one folder
    /// named after the event.
    package static func members(of gallery: Gallery, posts: [PostMetadata]) -> [Member] {
        let folder = ShareFileName.folderName(gallery.event)
        var members: [Member] = []
        let width = max(3, String(posts.count).count)
        if let reel = gallery.reel {
            members.append(Member(name: "\(folder)/\(String(repeating: "0", count: width)) - \(ShareFileName.folderName(gallery.event)).mp4",
                                  key: Gallery.reelKey(token: gallery.token), id: gallery.token, size: reel.size, sha256: reel.sha256,
                                  crc32: CRC32.value(hex: reel.crc32), createdAt: gallery.createdAt))
        }
        for (index, post) in posts.sorted(by: { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }).enumerated() {
            let number = String(index + 1)
            let name = "\(folder)/\(String(repeating: "0", count: width - number.count))\(number) - \(ShareFileName.name(for: post))"
            members.append(Member(name: name, key: post.key, id: post.id, size: post.byteSize, sha256: post.sha256,
                                  crc32: post.crc32.flatMap(CRC32.value(hex:)), createdAt: post.createdAt))
        }
        return members
    }

    /// The archive's file name: the event's.
    package static func fileName(_ gallery: Gallery) -> String {
        ShareFileName.folderName(gallery.event) + ".zip"
    }

    /// The MS-DOS time of an RFC 3339 moment, in UTC (the same for every server, whatever its zone).
    static func stamp(_ createdAt: String) -> ZipRecords.Stamp {
        var seconds = time_t(RFC3339.date(createdAt)?.timeIntervalSince1970.rounded(.down) ?? 315_532_800)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return ZipRecords.Stamp(year: Int(parts.tm_year), month: Int(parts.tm_mon), day: Int(parts.tm_mday),
                                hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    /// Which member's local header or bytes hold archive offset `position` (before the directory).
    func member(at position: UInt64) -> Int {
        var (low, high) = (0, offsets.count - 1)
        while low < high {
            let middle = (low + high + 1) / 2
            if offsets[middle] <= position { low = middle } else { high = middle - 1 }
        }
        return low
    }

    func localHeader(_ index: Int, crc: UInt32) -> [UInt8] {
        let size = UInt64(max(members[index].size, 0))
        return ZipRecords.localHeader(name: names[index], crc: crc, size: size, stamp: stamps[index], zip64: size >= ZipRecords.sizeLimit)
    }

    /// The central directory and the end records, every CRC-32 known.
    func tail(crcs: [UInt32]) -> [UInt8] {
        var bytes: [UInt8] = []
        for index in members.indices {
            let size = UInt64(max(members[index].size, 0))
            bytes += ZipRecords.centralRecord(name: names[index], crc: crcs[index], size: size, offset: offsets[index], stamp: stamps[index],
                                              bigSize: size >= ZipRecords.sizeLimit, bigOffset: offsets[index] >= ZipRecords.sizeLimit)
        }
        let directorySize = UInt64(bytes.count)
        bytes += ZipRecords.end(count: UInt64(members.count), directoryStart: directoryStart, directorySize: directorySize, zip64: false)
        return bytes
    }
}
