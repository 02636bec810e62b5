import FoundationEssentials
internal import SystemSupport

/// One HTTP request as the S3 client sends it. Header values are built by this module only, never
/// from user text: libcurl passes CR/LF in header values through unchanged.
struct HTTPRequest {
    enum Method: String { case get = "GET", head = "HEAD", put = "PUT", post = "POST", delete = "DELETE" }

    enum Body {
        case none
        case bytes([UInt8])
        /// `length` bytes of an open file from `offset`, read with pread(2) while sending.
        case file(descriptor: Int32, offset: Int64, length: Int64)

        var length: Int64 {
            switch self {
            case .none: 0
            case .bytes(let bytes): Int64(bytes.count)
            case .file(_, _, let length): length
            }
        }
    }

    var method: Method
    var url: String
    var headers: [(name: String, value: String)] = []
    var body: Body = .none
    /// The most of an answer's body kept in memory (S3's answers are small XML documents; a read
    /// of an object's bytes, a range of a video, says how many it asked for).
    var keep = 1 << 20
}

/// What the server answered.
struct HTTPResponse {
    var status: Int
    var body: [UInt8]
    var headers: [String: String]
    /// What a streamed download wrote (200 answers to a request sent with a file).
    var downloaded: DownloadedObject?

    var text: String { String(decoding: body, as: UTF8.self) }
    /// The ETag without its quotes.
    var etag: String? { headers["etag"].map { $0.trimmed { $0 == "\"" } } }
}

/// Network settings shared by every request to one store.
package struct TransferSettings: Sendable, Equatable {
    /// Seconds to wait for a TCP (and TLS) connection.
    package var connectTimeoutSeconds: Int
    /// Seconds without a byte moving before a transfer counts as stalled and is dropped.
    package var stallTimeoutSeconds: Int

    package init(connectTimeoutSeconds: Int = 10, stallTimeoutSeconds: Int = 30) {
        self.connectTimeoutSeconds = connectTimeoutSeconds
        self.stallTimeoutSeconds = stallTimeoutSeconds
    }
}
