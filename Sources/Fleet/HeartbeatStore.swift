import FoundationEssentials
package import FleetValues
package import Publishing
package import StorageUpload
package import StoreValues
package import Settings
package import Failures

/// The booths' heartbeats in the store: one object per booth, `fleet/<kiosk id>.json`, which its
/// kiosk overwrites every `fleet.heartbeat_seconds` (not through the outbox: a heartbeat that cannot
/// reach the store is itself what the fleet must see), and which readers list and read.
package struct HeartbeatStore: Sendable {
    /// The folder of the store the heartbeats are in.
    package static let folder = "fleet/"
    /// A heartbeat is a few KiB; anything much bigger under `fleet/` is not one.
    static let maximumBytes = 64 << 10
    /// At most this many booths are read (ten pages of a listing).
    static let maximumBooths = 10_000

    private let store: any StorageBackend

    package init(store: any StorageBackend) {
        self.store = store
    }

    /// The configured store's (`backend`, `s3.*`, `local.path`).
    package init(_ configuration: RecorderConfiguration) throws(RecorderError) {
        store = try configuration.makeBackend()
    }

    /// Where the store is, for messages: a directory, or `s3://bucket/prefix at endpoint`.
    package var location: String { store.location }

    /// The key of `kiosk`'s heartbeat.
    package static func key(_ kiosk: String) -> String { folder + kiosk + ".json" }

    /// Writes `heartbeat` over the booth's last one. Blocks: call it on a helper thread.
    package func write(_ heartbeat: Heartbeat) throws(StorageError) {
        try store.write(Self.encoded(heartbeat), key: Self.key(heartbeat.kiosk), contentType: "application/json")
    }

    /// The heartbeat as stored: sorted keys, so two of the same state are the same bytes.
    package static func encoded(_ heartbeat: Heartbeat) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        // (a Heartbeat is strings, numbers and booleans: it always encodes)
        return (try? encoder.encode(heartbeat)).map(Array.init) ?? []
    }

    /// One object found under `fleet/`: the booth its key names, the heartbeat when it could be
    /// read, and when the store last wrote it.
    package struct Found: Sendable, Equatable {
        package var kiosk: String
        package var heartbeat: Heartbeat?
        /// The format it says it has, when it is JSON with a `format` but not one this reads.
        package var format: Int?
        /// Seconds since 1970 by the store's clock; nil when the store does not say.
        package var storedAt: Double?

        package init(kiosk: String, heartbeat: Heartbeat?, format: Int? = nil, storedAt: Double?) {
            self.kiosk = kiosk
            self.heartbeat = heartbeat
            self.format = format
            self.storedAt = storedAt
        }
    }

    /// Every booth's heartbeat: the listing of `fleet/`, then the objects, eight at a time. Blocks.
    package func readAll() throws(StorageError) -> [Found] {
        var entries: [ObjectListing.Entry] = []
        var after: String?
        repeat {
            let page = try store.list(prefix: Self.folder, startAfter: after, maxKeys: 1000)
            entries += page.entries.filter { $0.key.hasSuffix(".json") && !$0.key.dropFirst(Self.folder.count).contains("/") }
            after = page.entries.last?.key
            guard page.isTruncated, after != nil, entries.count < Self.maximumBooths else { break }
        } while true
        var found = entries.map { entry in
            Found(kiosk: String(entry.key.dropFirst(Self.folder.count).dropLast(".json".count)), heartbeat: nil, storedAt: entry.lastModified)
        }
        try store.read(keys: entries.map(\.key), limit: Self.maximumBytes, width: 8) { index, outcome throws(StorageError) in
            switch outcome {
            case .success(let bytes?): (found[index].heartbeat, found[index].format) = Self.decoded(bytes)
            // (gone between the listing and the read: a booth's object is never removed, so a
            // store that lost it says so by leaving it unreadable)
            case .success(nil): break
            // (one booth's object too big for a heartbeat is that booth's problem, not the fleet's)
            case .failure(let error) where error.kind == .mismatch: break
            case .failure(let error): throw error
            }
        }
        return found
    }

    /// The heartbeat in `bytes`, or nil and the format it claims when it is not one this reads.
    static func decoded(_ bytes: [UInt8]) -> (Heartbeat?, Int?) {
        struct Format: Decodable { var format: Int? }
        let decoder = JSONDecoder()
        let format = (try? decoder.decode(Format.self, from: Data(bytes)))?.format
        guard format == Heartbeat.currentFormat, let heartbeat = try? decoder.decode(Heartbeat.self, from: Data(bytes)) else {
            return (nil, format)
        }
        return (heartbeat, format)
    }
}
