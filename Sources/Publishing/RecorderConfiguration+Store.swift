package import Settings
package import StorageUpload
import StoreValues
package import Failures

extension RecorderConfiguration {
    /// The store this configuration sends posts to, as an outbox item names it.
    package func postDestination() throws(RecorderError) -> PostDestination {
        try makeBackend().destination
    }

    package func retryPolicy(maximumAttempts: Int?) throws(RecorderError) -> RetryPolicy {
        let initial = try number("retry.initial_seconds")
        let maximum = try number("retry.max_seconds")
        return RetryPolicy(initialSeconds: initial, maximumSeconds: max(maximum, initial), maximumAttempts: maximumAttempts)
    }

    /// The configured store. Fails (misconfigured) on an unknown backend, a bad S3 setting or missing credentials.
    package func makeBackend() throws(RecorderError) -> any StorageBackend {
        switch values["backend"] ?? "local" {
        case "local":
            // Only the default location is made when missing; a configured one must exist.
            let create = try boolean("local.create")
            // (the package's own place, in the service's state directory, is a default too)
            return LocalDirectoryBackend(root: localStoreDirectory, createsRoot: values["local.path"] == nil || isPackageDefault("local.path") || create)
        case "s3":
            return try makeS3Backend()
        case let other:
            throw .configuration(origin("backend"), .unknownBackend(other))
        }
    }

    private func makeS3Backend() throws(RecorderError) -> S3Backend {
        func required(_ key: String) throws(RecorderError) -> String {
            guard let value = values[key], !value.isEmpty else {
                throw .configuration(origin(key), .s3Needs(key: key))
            }
            return value
        }
        let addressing = values["s3.addressing"] ?? "path"
        guard addressing == "path" || addressing == "virtual" else {
            throw .configuration(origin("s3.addressing"), .badValue(key: "s3.addressing", value: addressing, rule: .choice(["path", "virtual"])))
        }
        let endpoint = try required("s3.endpoint")
        let bucket = try required("s3.bucket")
        let mib = Double(1 << 20)
        let threshold = Int64(try number("s3.multipart_threshold_mib") * mib)
        let partSize = Int64(try number("s3.part_size_mib") * mib)
        let parallel = Int(try number("s3.parallel_parts"))
        let transfer = TransferSettings(
            connectTimeoutSeconds: Int(try number("network.connect_timeout_seconds")),
            stallTimeoutSeconds: Int(try number("network.stall_timeout_seconds")))
        do throws(StorageError) {
            let credentials = try S3Credentials.load(environment: environment, file: secretFile("s3.credentials_file"))
            let configuration = S3Configuration(
                endpoint: endpoint, region: values["s3.region"] ?? "us-east-1", bucket: bucket,
                prefix: values["s3.prefix"] ?? "", pathStyle: addressing == "path", credentials: credentials,
                multipartThreshold: threshold, partSize: partSize, parallelParts: parallel, transfer: transfer)
            return try S3Backend(configuration)
        } catch {
            throw .configuration("", .store(error))
        }
    }
}
