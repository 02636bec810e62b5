package import FoundationEssentials
import Settings
package import StorageUpload
package import SystemSupport
package import StoreValues
package import PreflightValues

/// The store's round trip: a small probe written, read back byte for byte, deleted, and found
/// gone, under `preflight/` (a folder no post, feed or purge uses).
package enum StoreCheck {
    /// Blocking (the store's requests).
    package static func roundTrip(_ store: any StorageBackend, now: Date = Date()) -> PreflightFinding {
        let key = "preflight/" + String((0..<16).map { _ in "0123456789abcdef".randomElement()! }) + ".txt"
        let bytes = Array("recorder doctor's probe, \(RFC3339.string(now)): written, read back and deleted at once.\n".utf8)
        let destination = store.destination
        let started = MonotonicClock.nowMicroseconds()
        do throws(StorageError) {
            try store.write(bytes, key: key, contentType: "text/plain; charset=utf-8")
        } catch {
            return .storeFailed(destination: destination, step: .write, fault: StoreFault(error))
        }
        do throws(StorageError) {
            guard try store.read(key: key, limit: 4096) == bytes else {
                forget(key, in: store)
                return .storeFailed(destination: destination, step: .verify, fault: .mismatch)
            }
        } catch {
            forget(key, in: store)
            return .storeFailed(destination: destination, step: .read, fault: StoreFault(error))
        }
        do throws(StorageError) {
            try store.delete(key: key)
            if try store.read(key: key, limit: 4096) != nil { return .probeLeft(destination: destination, key: key, fault: .mismatch) }
        } catch {
            return .probeLeft(destination: destination, key: key, fault: StoreFault(error))
        }
        let elapsed = (MonotonicClock.nowMicroseconds() - started) / 1000
        return .storeRoundTrip(destination: destination, bytes: bytes.count, milliseconds: Int(elapsed))
    }

    /// A probe that did not come back right is still deleted if it can be.
    private static func forget(_ key: String, in store: any StorageBackend) {
        // (the round trip has already failed and says why; a probe left is a few bytes)
        try? store.delete(key: key)
    }
}
