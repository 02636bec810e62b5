package import SystemSupport

extension StorageError {
    /// What happened to the store, its settings or a file, with its data. Each edge words it
    /// (`OperatorWords.store`: what happened and what to do).
    package enum Reason: Sendable, Equatable, Codable {
        // The S3 settings
        /// `s3.endpoint` is not an http(s)://host[:port] URL.
        case badEndpoint(String)
        /// `s3.region` is not a region's name.
        case badRegion(String)
        /// `s3.bucket` is not a bucket's name.
        case badBucket(String)
        /// `s3.prefix` starts with "/" or holds control characters.
        case badPrefix
        /// `s3.part_size_mib` under S3's 5 MiB.
        case partSizeTooSmall
        /// `s3.parallel_parts` outside 1...16.
        case parallelPartsOutOfRange
        /// `s3.multipart_threshold_mib` under `s3.part_size_mib`.
        case thresholdUnderPartSize
        /// A presigned link asked to live `seconds`, outside 1 s to 7 days.
        case linkLifetimeOutOfRange(seconds: Int)
        // The S3 credentials (`source`: where they came from)
        case noCredentials
        case credentialsUnreadable(file: String, errno: Int32)
        /// Group or others may read the file (its permission bits).
        case credentialsOpenToOthers(file: String, mode: UInt32)
        case credentialsNotText(file: String)
        /// The file lacks an `access_key_id` or a `secret_access_key` line.
        case credentialsIncomplete(file: String)
        case credentialsHaveSpaces(source: String)
        case accessKeyHasColon(source: String)
        // libcurl and the network
        /// libcurl could not be initialised.
        case libcurlUnavailable
        /// This libcurl refused a transfer option (`detail`: its words): it is too old.
        case libcurlTooOld(version: String, detail: String)
        /// libcurl's multi handle failed at `step` (`detail`: libcurl's words).
        case transfers(MultiStep, detail: String)
        /// Out of memory building the request to `url`.
        case outOfMemory(url: String)
        /// The download from `url` could not be written (errno).
        case cannotWriteDownload(url: String, errno: Int32)
        /// The file being uploaded could not be read (errno).
        case cannotReadUpload(errno: Int32)
        /// The endpoint is not an http(s) URL libcurl takes (`detail`: libcurl's words).
        case badEndpointURL(detail: String)
        case certificateUnverified(host: String, detail: String)
        case cannotResolve(host: String, detail: String)
        case cannotConnect(host: String, detail: String)
        case timedOut(host: String, detail: String)
        case transferFailed(host: String, detail: String)
        // The store's answers (`answer`: its status, and the S3 code and message of its body)
        /// Busy or failing (5xx, throttling, a timeout): tried again.
        case storeFailing(Answer, while: Operation, target: String)
        /// It says this machine's clock is wrong.
        case clockRejected(Answer)
        case noBucket(Answer, target: String)
        /// It refused the credentials (`credentials`: where they came from).
        case accessRefused(Answer, target: String, credentials: String)
        case refused(Answer, operation: Operation, target: String)
        // What the store holds
        /// The store's copy of `key` has another ETag than the file's MD5 (and no matching SHA-256).
        case copyDiffers(key: String, etag: String, md5: String)
        /// `target` is larger than `limit` bytes.
        case tooLarge(String, limit: Int)
        case downloadWithoutBody(key: String)
        case downloadCutShort(key: String, received: Int64, length: Int64)
        // Multipart uploads
        /// The file changed since its checksum was taken.
        case changedSinceChecksum(path: String)
        case partWithoutETag(part: Int, target: String)
        /// The store did not finish the upload (its code and message).
        case multipartNotFinished(target: String, code: String?, message: String?)
        case multipartChecksumDiffers(target: String, etag: String?, expected: String)
        /// The store no longer knows the upload: it starts again.
        case uploadForgotten(target: String)
        case cannotEncodeJournal
        // Archives (`recorder export`)
        case changedWhileArchived(source: String, read: Int64, size: Int64)
        case notAnArchiveName(String)
        case archiveEntryCutShort(name: String, written: Int64, size: Int64)
        case archiveFinished(path: String)
        // Ranges of an object (a host's Download all reads its posts a piece at a time)
        /// Bytes `from`-`to` of `target` asked at once, more than a read may hold.
        case rangeTooLarge(target: String, from: Int64, to: Int64)
        /// `target` has `size` bytes (nil: the store did not say how many): bytes `from`-`to` are not in it.
        case rangeNotInObject(target: String, size: Int64?, from: Int64, to: Int64)
        /// `target` answered `received` bytes for a range of `asked`.
        case rangeAnsweredMore(target: String, received: Int, asked: Int)
        // Files: the local store, the outbox, the cache
        /// A file call failed (`operation`: "write", "rename"...; `elsewhere`: where another
        /// location is chosen).
        case file(operation: String, path: String, errno: Int32, elsewhere: Elsewhere)
        /// The local store's directory is on a read-only file system.
        case readOnly(root: String)
        case notWritable(root: String)
        case existsWithOtherContent(path: String)
        case notADirectory(root: String)
        /// The local store's directory does not exist (a disk not mounted?).
        case storeMissing(root: String)
        // A post's files
        /// The feed's index object of post `id` could not be encoded.
        case cannotEncodeIndex(id: String, failure: EncodingFailure)
        /// The queued video no longer matches its checksum.
        case queuedVideoDamaged(path: String)
        /// The store does not hold what was sent for post `id`: it is sent again.
        case notHeld(id: String)
        /// The queued post's consent text does not hold what its metadata says.
        case consentTextDamaged(id: String, sha256: String, path: String)
        /// A queued post's metadata could not be encoded to be written again.
        case metadataUnwritable(failure: EncodingFailure)
    }

    /// A store's error answer: its status, and its body's S3 code and message.
    package struct Answer: Sendable, Equatable, Codable {
        package var status: Int
        package var code: String?
        package var message: String?

        package init(status: Int, code: String?, message: String?) {
            (self.status, self.code, self.message) = (status, code, message)
        }
    }

    /// What was being done when the store answered with an error.
    package enum Operation: Sendable, Equatable, Codable {
        case lookUp, upload, list, read, download, write, delete
        case listUnfinishedUploads, abortMultipart, startMultipart, completeMultipart
        case uploadPart(Int)
    }

    /// What libcurl's multi handle was doing.
    package enum MultiStep: String, Sendable, Equatable, Codable {
        case setUp, start, run, wait
    }

    /// Where another location is chosen, for a file's fix.
    package enum Elsewhere: String, Sendable, Equatable, Codable {
        /// Another directory in the configuration.
        case configuration
        /// The workspace setting for shots, the outbox setting for posts.
        case workspaceOrOutbox
        /// A writable directory for `local.path`.
        case storeDirectory
        /// The outbox setting.
        case outbox
        /// `cache.path`.
        case cache
        /// The command line's `--output`.
        case output
    }
}
