import FoundationEssentials
package import StoreValues

/// Where and how to reach an S3-compatible bucket.
package struct S3Configuration: Sendable {
    /// `https://host[:port]` (or `http://` for a store on loopback); no path.
    package var endpoint: String
    package var region: String
    package var bucket: String
    /// Prepended to every key, e.g. `booth-1/`.
    package var prefix: String
    /// `https://endpoint/bucket/key` when true, `https://bucket.endpoint/key` when false.
    package var pathStyle: Bool
    package var credentials: S3Credentials
    /// Files larger than this go up in parts.
    package var multipartThreshold: Int64
    /// At least 5 MiB (S3's minimum for all but the last part).
    package var partSize: Int64
    /// Parts sent at the same time.
    package var parallelParts: Int
    package var transfer: TransferSettings

    package static let minimumPartSize: Int64 = 5 << 20

    package init(endpoint: String, region: String, bucket: String, prefix: String = "", pathStyle: Bool = true,
                credentials: S3Credentials, multipartThreshold: Int64 = 16 << 20, partSize: Int64 = 8 << 20,
                parallelParts: Int = 4, transfer: TransferSettings = TransferSettings()) {
        self.endpoint = endpoint
        self.region = region
        self.bucket = bucket
        self.prefix = prefix
        self.pathStyle = pathStyle
        self.credentials = credentials
        self.multipartThreshold = multipartThreshold
        self.partSize = partSize
        self.parallelParts = parallelParts
        self.transfer = transfer
    }

    /// Checks what can be checked without the network.
    package func validate() throws(StorageError) {
        guard let url = URLComponents(string: endpoint), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty,
              url.path.isEmpty || url.path == "/", url.query == nil else {
            throw StorageError(.configuration, .badEndpoint(endpoint), retryable: false)
        }
        guard !region.isEmpty, region.utf8.allSatisfy({ isAlnum($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "_") }) else {
            throw StorageError(.configuration, .badRegion(region), retryable: false)
        }
        guard bucket.count >= 3, bucket.count <= 63,
              bucket.utf8.allSatisfy({ isLowerAlnum($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else {
            throw StorageError(.configuration, .badBucket(bucket), retryable: false)
        }
        guard prefix.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7f }), !prefix.hasPrefix("/") else {
            throw StorageError(.configuration, .badPrefix, retryable: false)
        }
        guard partSize >= Self.minimumPartSize else {
            throw StorageError(.configuration, .partSizeTooSmall, retryable: false)
        }
        guard (1...16).contains(parallelParts) else {
            throw StorageError(.configuration, .parallelPartsOutOfRange, retryable: false)
        }
        guard multipartThreshold >= partSize else {
            throw StorageError(.configuration, .thresholdUnderPartSize, retryable: false)
        }
    }

    private func isAlnum(_ c: UInt8) -> Bool { isLowerAlnum(c) || (c >= UInt8(ascii: "A") && c <= UInt8(ascii: "Z")) }
    private func isLowerAlnum(_ c: UInt8) -> Bool {
        (c >= UInt8(ascii: "a") && c <= UInt8(ascii: "z")) || (c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9"))
    }
}
