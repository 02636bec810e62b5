import FoundationEssentials
import Glibc
import StorageUpload
internal import SystemSupport
package import Settings
package import MediaValues
package import StoreValues
package import Failures

/// A JPEG of the picture about a second into the video at a path, or why none can be made: the
/// booth's is `Posters.jpeg` (Posting), which this module, linking no encoder, is handed.
package typealias PosterMaker = @Sendable (_ videoPath: String) throws(MediaError) -> [UInt8]

/// Posters for posts that have none (posted before posters existed): `recorder feed --reindex`.
extension PostFeed {
    /// What `makeMissingPosters` did.
    package struct PosterReport: Sendable, Encodable, Equatable {
        package var made = 0
        /// Posts whose poster could not be made, with why.
        package var failed: [String: RecorderError] = [:]
    }

    /// Downloads the video of every post without a poster into a temporary file, stores its picture
    /// about a second in as `thumbs/<id>.jpg`, then rewrites its metadata to name it (poster first,
    /// so a metadata document never names a missing poster). A post that fails is reported and
    /// left as it was.
    /// `poster` makes the picture (the booth's `Posters.jpeg`: this module links no encoder).
    package func makeMissingPosters(poster: PosterMaker) throws(RecorderError) -> PosterReport {
        var report = PosterReport()
        var after: String?
        do throws(StorageError) {
            repeat {
                let listing = try store.list(prefix: "posts/", startAfter: after, maxKeys: Self.maximumPageSize)
                for item in listing.entries where item.key.hasSuffix(".json") {
                    let id = String(item.key.dropFirst("posts/".count).dropLast(5))
                    guard PostID.isValid(id), var metadata = try? metadata(id: id), metadata.thumbnailKey == nil else { continue }
                    do throws(RecorderError) {
                        let poster = try posterOfVideo(metadata, poster)
                        let key = PostMetadata.thumbnailKey(id: id)
                        (metadata.thumbnailKey, metadata.thumbnailURL) = (key, store.url(forKey: key))
                        let document = try metadata.jsonData()
                        do throws(StorageError) {
                            try store.write(poster, key: key, contentType: "image/jpeg")
                            try store.write(Array(document), key: metadata.metadataKey, contentType: "application/json")
                        } catch {
                            throw .feed(.cannotStorePoster(id: id, error))
                        }
                        report.made += 1
                    } catch {
                        report.failed[id] = error
                    }
                }
                after = listing.isTruncated ? listing.entries.last?.key : nil
            } while after != nil
        } catch {
            throw Self.listingError(error)
        }
        return report
    }

    /// Post `metadata`'s poster (`thumbs/<id>.jpg`, a small JPEG, read whole); nil for a post without one.
    package func poster(of metadata: PostMetadata) throws(RecorderError) -> [UInt8]? {
        do throws(StorageError) {
            return try metadata.thumbnailKey.flatMap { key throws(StorageError) in try store.read(key: key, limit: 4 << 20) }
        } catch {
            throw .feed(.cannotReadPoster(id: metadata.id, error))
        }
    }

    /// Where post `id`'s video is in the store (its address: what the video cache is keyed by).
    package func videoURL(id: String) -> String {
        store.url(forKey: PostMetadata.videoKey(id: id))
    }

    private func posterOfVideo(_ metadata: PostMetadata, _ make: PosterMaker) throws(RecorderError) -> [UInt8] {
        let directory = Posix.environment("TMPDIR") ?? "/tmp"
        let descriptor: Int32, path: String
        do throws(Descriptors.Errno) {
            (descriptor, path) = try Posix.makeTemporaryFile(in: directory, prefix: "recorder-poster-", suffix: ".mp4")
        } catch {
            throw .feed(.noTemporaryFile(id: metadata.id, directory: directory, errno: error.code))
        }
        defer {
            // A temporary file of this process, read and done with: nothing to report if it stays.
            Posix.closeAfterUse(descriptor)
            try? Posix.unlink(path)
        }
        let downloaded: DownloadedObject?
        do throws(StorageError) { downloaded = try store.download(key: metadata.key, into: descriptor, progress: nil) } catch {
            throw .feed(.cannotDownloadVideo(id: metadata.id, error))
        }
        guard let downloaded else { throw .feed(.videoNotInStore(id: metadata.id)) }
        guard downloaded.sha256 == metadata.sha256 else { throw .feed(.videoMismatch(id: metadata.id)) }
        do throws(MediaError) { return try make(path) } catch {
            throw .feed(.noPicture(id: metadata.id, error))
        }
    }
}
