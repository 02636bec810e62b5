package import FoundationEssentials
package import Publishing
package import Failures
package import StorageUpload
import StoreValues
package import SystemSupport

extension PostArchive {
    /// An archive's bytes in `range`, a piece at a time, in order: local headers and the central
    /// directory made as they are reached, each member's bytes streamed from the store in one
    /// request (`ReadableStorage.stream`, from its first byte wanted to its last), a piece taken as
    /// the one before is sent (or passed to the connection's socket, `next(to:)`): an answer that
    /// stops being read holds a piece, not the member. Bytes the store changed are never passed off
    /// as the post: the answer stops short of its length. A member whose store's answer names it by
    /// the SHA-256 kept with the object (`ObjectStream.keptSHA256`: S3, as recorder uploads) is
    /// checked by that before its first byte; one read from its first byte to its last without it
    /// (a local store, an object another program wrote) against its CRC-32 at its end.
    ///
    /// `@unchecked Sendable`: one answer reads it, one awaited piece after another, never two at once.
    package final class Reader: @unchecked Sendable {
        package let archive: PostArchive
        private let store: any StorageBackend
        private var crcs: [UInt32?]
        private var position: UInt64
        /// One past the last byte to read.
        private let end: UInt64
        /// The member being read from its first byte, and its CRC-32 so far; `vouched` once its
        /// stream's answer named it by its SHA-256 (then its bytes need no CRC-32).
        private var running: (index: Int, crc: CRC32, read: UInt64, vouched: Bool)?
        private var tailBytes: [UInt8]?
        /// The member being streamed, and where its next byte is in it.
        private var stream: (index: Int, at: UInt64, bytes: any ObjectStream)?
        /// The next member's stream, asked of the store while this one's last pieces are read (so
        /// its answer is on its way, not waited for between the two), up to its byte `last`.
        private var asked: (index: Int, last: UInt64, stream: AskedStream)?
        /// The last member asked for ahead, whether or not the store took the request.
        private var askedIndex = -1

        package init(_ archive: PostArchive, store: any StorageBackend, range: ClosedRange<UInt64>) {
            self.archive = archive
            self.store = store
            crcs = archive.members.map(\.crc32)
            position = range.lowerBound
            end = min(range.upperBound + 1, archive.length)
        }

        /// Up to `limit` bytes from where the last piece ended; nil after the range's last byte.
        package func next(limit: Int) throws(RecorderError) -> [UInt8]? {
            try .filled(limit: limit) { (piece) throws(RecorderError) in try next(into: piece) }
        }

        /// As `next(limit:)`, into `piece` (up to its size): how many bytes it holds now, 0 after
        /// the range's last byte. A member's bytes land there from the store's stream, no copy between.
        package func next(into piece: UnsafeMutableRawBufferPointer) throws(RecorderError) -> Int {
            guard position < end, piece.count > 0 else { return 0 }
            let count = try read(at: position, to: .piece(piece))
            position += UInt64(count)
            return count
        }

        /// As `next(into:)`, up to `limit` bytes written to `sink`: a member's passed from the
        /// store's socket to the sink's in the kernel where its stream can (`ObjectStream.pass`),
        /// the headers and the directory written. How many went: 0 after the range's last byte, or
        /// once the sink took no more (its `failure`).
        package func next(to sink: SocketSink, limit: Int) throws(RecorderError) -> Int {
            guard position < end, limit > 0, sink.failure == nil else { return 0 }
            let count = try read(at: position, to: .sink(sink, limit: limit))
            position += UInt64(count)
            return count
        }

        /// Where a piece goes: a buffer, or up to `limit` bytes into a sink.
        private enum Destination {
            case piece(UnsafeMutableRawBufferPointer)
            case sink(SocketSink, limit: Int)

            var limit: Int {
                switch self {
                case .piece(let piece): piece.count
                case .sink(_, let limit): limit
                }
            }

            /// Bytes `from..<to` of `bytes`: how many went (fewer: the sink took no more).
            func put(_ bytes: [UInt8], from: UInt64, to: UInt64) -> Int {
                let count = Int(max(from, to) - from)
                return bytes.withUnsafeBytes { all in
                    let part = UnsafeRawBufferPointer(rebasing: all[Int(from)..<(Int(from) + count)])
                    switch self {
                    case .piece(let piece):
                        piece.baseAddress!.copyMemory(from: part.baseAddress!, byteCount: count)
                        return count
                    case .sink(let sink, _):
                        return sink.write(part) ? count : 0
                    }
                }
            }
        }

        private func read(at position: UInt64, to destination: Destination) throws(RecorderError) -> Int {
            let limit = UInt64(destination.limit)
            if position >= archive.directoryStart {
                if tailBytes == nil {
                    var known: [UInt32] = []
                    for index in archive.members.indices { known.append(try crc(of: index)) }
                    tailBytes = archive.tail(crcs: known)
                }
                return destination.put(tailBytes!, from: position - archive.directoryStart, to: min(end - archive.directoryStart, position - archive.directoryStart + limit))
            }
            let index = archive.member(at: position)
            let start = archive.offsets[index], dataStart = start + archive.headerLengths[index]
            if position < dataStart {
                let header = archive.localHeader(index, crc: try crc(of: index))
                return destination.put(header, from: position - start, to: min(dataStart, end, position + limit) - start)
            }
            let member = archive.members[index]
            let from = position - dataStart
            let last = min(end, dataStart + UInt64(member.size)) - dataStart - 1
            let count = min(limit, last + 1 - from)
            if from == 0 { running = (index, CRC32(), 0, false) }
            // (only a member read from its first byte on is checked; a resumed one cannot be)
            let checked = running.map { $0.index == index && $0.read == from } ?? false
            let expected = checked ? try crc(of: index) : 0, size = UInt64(member.size)
            // (asked once its stream is open: a member its store vouched for is not summed)
            let summed = { checked && self.running?.vouched == false }
            let moved: UInt64
            switch destination {
            case .piece(let piece):
                let bytes = UnsafeMutableRawBufferPointer(rebasing: piece[..<Int(count)])
                try read(of: index, from: from, last: last, count: count) { (stream) throws(StorageError) in
                    try stream.next(into: bytes)
                }
                if summed(), !see(UnsafeRawBufferPointer(bytes), size: size, expected: expected) { throw .gallery(.postChanged(id: member.id)) }
                moved = count
            case .sink(let sink, _):
                // The member's last bytes go only once the whole of it matched its CRC-32.
                moved = try read(of: index, from: from, last: last, count: count, sink: sink) { (stream) throws(StorageError) in
                    try stream.pass(Int(count), to: sink, seen: summed() ? { self.see($0, size: size, expected: expected) } : nil)
                }
                if checked, running == nil { throw .gallery(.postChanged(id: member.id)) }
            }
            if checked, running?.vouched == true { running?.read += moved }
            if checked, running?.read == size { running = nil }
            return Int(moved)
        }

        /// The running member's next `bytes` counted into its CRC-32: false when they are its last
        /// and the whole does not match `expected` (then nothing runs any more).
        private func see(_ bytes: UnsafeRawBufferPointer, size: UInt64, expected: UInt32) -> Bool {
            guard var running else { return false }
            running.crc.update(bytes)
            running.read += UInt64(bytes.count)
            guard running.read < size || running.crc.value == expected else {
                self.running = nil
                return false
            }
            self.running = running
            return true
        }

        /// Member `index`'s CRC-32: the metadata's, the one kept in the store, or computed now from
        /// the store's copy (checked against the post's SHA-256) and kept there.
        private func crc(of index: Int) throws(RecorderError) -> UInt32 {
            if let known = crcs[index] { return known }
            let member = archive.members[index]
            let found = try Self.checksum(of: member, in: store)
            crcs[index] = found
            return found
        }

        /// `count` of member `index`'s object's bytes from `from`, taken by `take` (into a piece, or
        /// passed to `sink`) from the stream of its bytes up to `last` (opened when not already
        /// there): all of them, or the post changed under the archive; fewer only when `sink` took
        /// no more (its `failure`).
        @discardableResult
        private func read(of index: Int, from: UInt64, last: UInt64, count: UInt64, sink: SocketSink? = nil,
                          _ take: (any ObjectStream) throws(StorageError) -> Int) throws(RecorderError) -> UInt64 {
            let member = archive.members[index]
            if stream?.index != index || stream?.at != from {
                stream = nil
                let ahead = asked.flatMap { $0.index == index && $0.last == last && from == 0 ? $0.stream : nil }
                asked = nil
                let opened: (any ObjectStream)?
                do throws(StorageError) {
                    if let ahead { opened = try ahead.open() } else { opened = try store.stream(key: member.key, range: Int64(from)...Int64(last)) }
                } catch {
                    throw .gallery(.cannotRead(error))
                }
                guard let opened else { throw .gallery(.postChanged(id: member.id)) }
                // The store names the object by the SHA-256 kept with it: another object than the
                // post's is refused before any byte of it goes; the post's own needs no CRC-32.
                if let kept = opened.keptSHA256 {
                    guard kept.lowercased() == member.sha256.lowercased() else { throw .gallery(.postChanged(id: member.id)) }
                    if from == 0, running?.index == index { running?.vouched = true }
                }
                stream = (index, from, opened)
            }
            let got: Int
            do throws(StorageError) {
                if let open = stream?.bytes { got = try take(open) } else { got = 0 }
            } catch {
                stream = nil
                throw .gallery(.cannotRead(error))
            }
            // (the sink took no more: the answer ends here, its connection gone)
            if let sink, sink.failure != nil {
                stream = nil
                return UInt64(got)
            }
            guard got == Int(count) else {
                stream = nil
                throw .gallery(.postChanged(id: member.id))
            }
            stream?.at += count
            // (its last byte taken: the transfer has ended; released now)
            if from + count > last { stream = nil }
            if last + 1 - (from + count) <= Self.askAhead, askedIndex < index + 1 { askNext(after: index) }
            return count
        }

        /// How near a member's end the next one is asked for: two pieces of a Download all.
        static let askAhead: UInt64 = 8 << 20

        /// Asks the store for the member after `index` from its first byte, when the range holds it.
        /// A request the store does not take is asked again when that member is reached (and its
        /// failure said then).
        private func askNext(after index: Int) {
            let next = index + 1
            askedIndex = next
            guard next < archive.members.count, archive.members[next].size > 0 else { return }
            let start = archive.offsets[next] + archive.headerLengths[next]
            guard start < end else { return }
            let last = min(end, start + UInt64(archive.members[next].size)) - start - 1
            if let stream = try? store.ask(key: archive.members[next].key, range: 0...Int64(last)) {
                asked = (next, last, stream)
            }
        }

        /// How much of a member is read at once to find its CRC-32.
        static let sumChunk: Int64 = 8 << 20

        /// `member`'s CRC-32 as kept in the store (`sums/<id>.json`, for the same SHA-256), else read
        /// from its object, checked against its size and SHA-256, and kept for the next time.
        static func checksum(of member: Member, in store: any StorageBackend) throws(RecorderError) -> UInt32 {
            let key = PostMetadata.sumsKey(id: member.id)
            if let bytes = try? store.read(key: key, limit: 4096), let kept = try? JSONDecoder().decode(Sums.self, from: Data(bytes)),
               kept.sha256 == member.sha256, let value = CRC32.value(hex: kept.crc32) {
                return value
            }
            var crc = CRC32()
            var sha = SHA256Stream()
            var offset: Int64 = 0
            // (one streamed request for the whole object, taken a chunk at a time)
            var stream: (any ObjectStream)?
            while offset < member.size {
                let count = min(sumChunk, member.size - offset)
                let bytes: [UInt8]?
                do throws(StorageError) {
                    if stream == nil { stream = try store.stream(key: member.key, range: 0...(member.size - 1)) }
                    bytes = try stream?.next(limit: Int(count))
                } catch { throw .gallery(.cannotRead(error)) }
                guard let bytes, Int64(bytes.count) == count else { throw .gallery(.postChanged(id: member.id)) }
                crc.update(bytes)
                bytes.withUnsafeBytes { sha.update($0) }
                offset += count
            }
            guard sha.finalize() == member.sha256 else { throw .gallery(.postChanged(id: member.id)) }
            if let document = try? JSONEncoder().encode(Sums(sha256: member.sha256, crc32: CRC32.hex(crc.value))) {
                // (kept to spare the next archive the read; one not kept is computed again then)
                try? store.write(Array(document), key: key, contentType: "application/json")
            }
            return crc.value
        }
    }

    /// What the store keeps of a post's sums that its metadata lacks.
    struct Sums: Codable {
        var sha256: String
        var crc32: String
    }
}
