import Glibc
import StoreValues
import SystemSupport

// The store's, its settings' and its files' failures: what happened and what to do, in the
// store's terms (the settings as configuration keys).
extension OperatorWords {
    static func store(_ error: StorageError) -> String {
        switch error.reason {
        case .badEndpoint(let endpoint):
            "s3.endpoint '\(endpoint)' is not an http(s)://host[:port] URL. Example: https://s3.eu-west-1.amazonaws.com"
        case .badRegion(let region):
            "s3.region '\(region)' is not a region name (letters, digits, '-'), e.g. us-east-1."
        case .badBucket(let bucket):
            "s3.bucket '\(bucket)' is not a valid bucket name (3-63 lowercase letters, digits, '-' or '.')."
        case .badPrefix:
            "s3.prefix must not start with '/' or contain control characters."
        case .partSizeTooSmall:
            "s3.part_size_mib must be at least 5 (S3's minimum part size)."
        case .parallelPartsOutOfRange:
            "s3.parallel_parts must be between 1 and 16."
        case .thresholdUnderPartSize:
            "s3.multipart_threshold_mib must be at least s3.part_size_mib."
        case .linkLifetimeOutOfRange(let seconds):
            "a presigned link lives 1 s to 7 days (604800 s); \(seconds) s was asked."
        case .noCredentials:
            "no S3 credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, or s3.credentials_file to a file with access_key_id = ... and secret_access_key = ... (mode 0600)."
        case .credentialsUnreadable(let file, let code):
            "cannot read the S3 credentials file \(file): \(errno(code)). Create it (mode 0600) or fix s3.credentials_file."
        case .credentialsOpenToOthers(let file, let mode):
            "the S3 credentials file \(file) is readable by other users (mode \(String(mode & 0o777, radix: 8))). Run: chmod 600 \(file)"
        case .credentialsNotText(let file):
            "cannot read the S3 credentials file \(file) as UTF-8 text. Check its permissions and contents."
        case .credentialsIncomplete(let file):
            "the S3 credentials file \(file) needs both access_key_id = ... and secret_access_key = ... lines."
        case .credentialsHaveSpaces(let source):
            "the S3 credentials from \(source) contain spaces or control characters. Copy the keys again without them."
        case .accessKeyHasColon(let source):
            "the S3 access key id from \(source) contains ':', which no S3 key has. Check the credentials."
        case .libcurlUnavailable:
            "libcurl could not be initialised (out of memory?)."
        case .libcurlTooOld(let version, let detail):
            "this libcurl (\(version)) refused a transfer option: \(detail). Install libcurl 7.85 or newer (Debian 12: libcurl4)."
        case .transfers(let step, let detail):
            "libcurl could not \(multiStep(step)) its multi handle (\(detail)); it will be tried again."
        case .outOfMemory(let url):
            "out of memory while building the request to \(url); it will be tried again."
        case .cannotWriteDownload(let url, let code):
            "cannot write the download from \(url): \(errno(code))."
        case .cannotReadUpload(let code):
            "cannot read the file being uploaded: \(errno(code))."
        case .badEndpointURL(let detail):
            "the store endpoint is not a valid http(s) URL (\(detail)). Fix s3.endpoint in the configuration."
        case .certificateUnverified(let host, let detail):
            "the TLS certificate of \(host) could not be verified (\(detail)). Fix the endpoint's certificate or install its CA; verification is never turned off."
        case .cannotResolve(let host, let detail):
            "cannot resolve \(host) (\(detail)). Check the network and s3.endpoint."
        case .cannotConnect(let host, let detail):
            "cannot connect to \(host) (\(detail)). Check the network, and that the store is running at s3.endpoint."
        case .timedOut(let host, let detail):
            "the connection to \(host) timed out or stalled (\(detail))."
        case .transferFailed(let host, let detail):
            "the transfer to \(host) failed (\(detail))."
        case .storeFailing(let answer, let operation, let target):
            "the store is busy or failing (\(said(answer))) while trying to \(self.operation(operation)) \(target)."
        case .clockRejected(let answer):
            "the store rejected the request because this machine's clock is wrong (\(said(answer))). Set the time (e.g. enable systemd-timesyncd)."
        case .noBucket(let answer, let target):
            "the bucket does not exist (\(said(answer))): \(target). Create it, or fix s3.bucket and s3.endpoint."
        case .accessRefused(let answer, let target, let credentials):
            "the store refused access to \(target) (\(said(answer))). Check the access key and secret from \(credentials), and that they may write to the bucket."
        case .refused(let answer, let operation, let target):
            "the store refused to \(self.operation(operation)) \(target) (\(said(answer)))."
        case .copyDiffers(let key, let etag, let md5):
            "the store's copy of \(key) does not match the file (ETag \(etag), not its MD5 \(md5), and no matching x-amz-meta-sha256); it will be sent again."
        case .tooLarge(let target, let limit):
            "\(target) is larger than the \(limit) bytes expected of it."
        case .downloadWithoutBody(let key):
            "the download of \(key) returned no body."
        case .downloadCutShort(let key, let received, let length):
            "the download of \(key) stopped at \(received) of \(length) bytes."
        case .changedSinceChecksum(let path):
            "\(path) changed since its checksum was taken (disk damage?); it was not uploaded."
        case .partWithoutETag(let part, let target):
            "the store gave no ETag for part \(part) of \(target); it will be sent again."
        case .multipartNotFinished(let target, let code, let message):
            "the store failed to finish \(target) (\(code ?? "error"): \(message ?? ""))."
        case .multipartChecksumDiffers(let target, let etag, let expected):
            "the store's checksum of \(target) (\(etag ?? "none")) differs from the parts sent (\(expected))."
        case .uploadForgotten(let target):
            "the store no longer knows the multipart upload of \(target); it will start again."
        case .cannotEncodeJournal:
            "cannot encode the part journal."
        case .changedWhileArchived(let source, let read, let size):
            "\(source) changed while it was being archived (\(read) of \(size) bytes read); export again."
        case .notAnArchiveName(let name):
            "'\(name)' cannot be a name in an archive."
        case .archiveEntryCutShort(let name, let written, let size):
            "'\(name)' had \(written) bytes where \(size) were expected; export again."
        case .archiveFinished(let path):
            "the archive \(path) is already finished."
        case .rangeTooLarge(let target, let from, let to):
            "bytes \(from)-\(to) of \(target) cannot be read at once."
        case .rangeNotInObject(let target, let size, let from, let to):
            size.map { "\(target) has \($0) bytes: bytes \(from)-\(to) are not in it." } ?? "\(target) does not have bytes \(from)-\(to)."
        case .rangeAnsweredMore(let target, let received, let asked):
            "\(target) answered \(received) bytes for \(asked)."
        case .file(let operation, let path, let code, let elsewhere):
            file(operation, path, code, elsewhere)
        case .readOnly(let root):
            "the store directory \(root) is on a read-only file system (a disk mounted read-only, or remounted so after an error: see `dmesg`). Remount it read-write, or set local.path to another directory."
        case .notWritable(let root):
            "the store directory \(root) is not writable by this user. Fix its permissions or set local.path to another directory."
        case .existsWithOtherContent(let path):
            "\(path) already exists with other content; it was not overwritten."
        case .notADirectory(let root):
            "the store path \(root) is not a directory."
        case .storeMissing(let root):
            "the store directory \(root) does not exist (a disk that is not mounted?)."
        case .cannotEncodeIndex(let id, let failure):
            "internal error: cannot encode the index object of post \(id): \(encoding(failure))"
        case .queuedVideoDamaged(let path):
            "the queued video \(path) no longer matches its checksum (disk damage?). Inspect it; it was not uploaded."
        case .notHeld(let id):
            "the store does not hold what was sent for post \(id); it will be sent again."
        case .consentTextDamaged(let id, let sha256, let path):
            "the queued post \(id) names a consent text (SHA-256 \(sha256)) that \(path) does not hold (disk damage?). Inspect it; the post was not uploaded."
        case .metadataUnwritable(let failure):
            "internal error: cannot encode the post's metadata: \(encoding(failure)). It stays queued."
        }
    }

    /// A file call's failure: a full disk, a permission or a missing directory each with its fix.
    static func file(_ operation: String, _ path: String, _ code: Int32, _ elsewhere: StorageError.Elsewhere) -> String {
        let reason = errno(code)
        let other = switch elsewhere {
        case .configuration: "another directory in the configuration"
        case .workspaceOrOutbox: "another location (the workspace setting for shots, the outbox setting for posts)"
        case .storeDirectory: "a writable directory for local.path"
        case .outbox: "another outbox directory (the outbox setting)"
        case .cache: "another cache.path"
        case .output: "another --output"
        }
        return switch code {
        case ENOSPC, EDQUOT: "the disk is full (\(operation) \(path): \(reason)). Free some space and try again; nothing was lost."
        case EACCES, EPERM, EROFS: "cannot \(operation) \(path): \(reason). Make it writable for this user or choose \(other)."
        case ENOENT, ENOTDIR: "cannot \(operation) \(path): \(reason). Create its parent directory or choose \(other)."
        default: "cannot \(operation) \(path): \(reason)."
        }
    }

    /// "HTTP 503 SlowDown: please slow down": the store's answer as it gave it.
    static func said(_ answer: StorageError.Answer) -> String {
        let server = [answer.code, answer.message].compactMap { $0 }.joined(separator: ": ")
        return server.isEmpty ? "HTTP \(answer.status)" : "HTTP \(answer.status) \(server)"
    }

    /// What was being done, as the end of "while trying to ..." and "refused to ...".
    static func operation(_ operation: StorageError.Operation) -> String {
        switch operation {
        case .lookUp: "look up"
        case .upload: "upload"
        case .list: "list"
        case .read: "read"
        case .download: "download"
        case .write: "write"
        case .delete: "delete"
        case .listUnfinishedUploads: "list the unfinished uploads of"
        case .abortMultipart: "abort the multipart upload of"
        case .startMultipart: "start a multipart upload of"
        case .completeMultipart: "complete the multipart upload of"
        case .uploadPart(let number): "upload part \(number) of"
        }
    }

    static func multiStep(_ step: StorageError.MultiStep) -> String {
        switch step {
        case .setUp: "set up"
        case .start: "start a transfer on"
        case .run: "run the transfers of"
        case .wait: "wait for the transfers of"
        }
    }
}
