import Synchronization

/// Bytes handed to stores by this process so far: the kiosk's upload progress and its
/// `recorder_upload_bytes_total` metric. One counter for the process, since one uploader sends at a time.
package enum UploadMeter {
    private static let sent = Atomic<Int64>(0)

    /// Every byte of every request body and local-store copy since the process started.
    package static var bytesSent: Int64 { sent.load(ordering: .relaxed) }

    static func add(_ count: Int) {
        sent.add(Int64(count), ordering: .relaxed)
    }
}
