import FoundationEssentials
package import Settings
import StorageUpload
import SystemSupport
package import Failures

/// Which kiosk posted a post (`kiosk.id`): its index object's key carries it
/// (`feed/<time>-<post id>-<kiosk id>.json`), so a kiosk sharing a store with others deletes only
/// its own posts when they expire (`retention.scope = own`). 1 to 32 lowercase letters, digits and
/// inner dashes; by default made from this machine's `/etc/machine-id`, so two booths never share
/// one by accident, unless their systems were cloned with it (then give each its own).
package enum KioskID {
    package static let maximumLength = 32

    package static func isValid(_ id: String) -> Bool {
        (1...maximumLength).contains(id.utf8.count) && !id.hasPrefix("-") && !id.hasSuffix("-")
            && id.utf8.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) || $0 == UInt8(ascii: "-") }
    }

    /// `kiosk.id`, else the one made from `/etc/machine-id` (`machineIDFile`), else from the host name.
    package static func configured(_ configuration: RecorderConfiguration, machineIDFile: String = "/etc/machine-id") throws(RecorderError) -> String {
        if let id = configuration.text("kiosk.id"), !id.isEmpty {
            guard isValid(id) else {
                throw .configuration(configuration.origin("kiosk.id"), .badKioskID(id, maximumLength: maximumLength))
            }
            return id
        }
        let machine = FileSystem.dataIfReadable(machineIDFile).map { String(decoding: $0, as: UTF8.self).trimmed() } ?? ""
        let seed = machine.isEmpty ? configuration.author.id : machine
        // (a digest: the machine id itself is not for others to read, and the store is shared)
        return "k" + FileDigest.sha256(Array("recorder kiosk id \(seed)".utf8)).prefix(11)
    }
}
