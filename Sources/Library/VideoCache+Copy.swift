import Glibc
package import Settings
import StorageUpload
import SystemSupport
package import StoreValues
package import Failures

extension VideoCache {
    /// Copies a cached video to `destination`: next to it first, synced, then renamed into place,
    /// so a failed copy leaves no half file. `elsewhere` says where another destination is chosen.
    package static func copy(_ source: String, to destination: String, elsewhere: StorageError.Elsewhere) throws(RecorderError) {
        let temp = destination + ".part-\(Posix.processID)"
        // This process's own name, left only by a copy cut off earlier; copySynced makes it anew (O_EXCL).
        try? Posix.unlink(temp)
        do throws(StorageError) {
            try LocalFiles.copySynced(from: source, to: temp)
        } catch {
            throw .cache(.cannotCopy(to: destination, error))
        }
        do throws(StorageError) {
            try LocalFiles.run("write", destination, elsewhere: elsewhere) { () throws(Descriptors.Errno) in try Posix.rename(temp, to: destination) }
        } catch {
            // The rename's failure is the one to report; the copy must not stay behind.
            try? Posix.unlink(temp)
            throw .cache(.cannotCopy(to: destination, error))
        }
    }
}
