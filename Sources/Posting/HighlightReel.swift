package import FoundationEssentials
import Glibc
package import MediaEncoder
import StorageUpload
package import SystemSupport
package import Settings
package import Publishing
package import MediaValues
package import StoreValues
package import Failures
package import Library

/// `recorder reel`: the event's posts, oldest first, in one MP4 for its hosts, each after a title
/// card (caption, question, time), all at one loudness (EBU R128, measured by libavfilter's
/// `ebur128`) so no guest is drowned by the one before.
///
/// Each post comes through the cache, checked against the SHA-256 in its metadata, and is measured
/// before anything is written; a post that cannot be read or measured is named and left out. The
/// reel is written beside its name and linked into place when whole: a reel by that name is
/// always finished, and one made in the meantime is never replaced.
package struct HighlightReel {
    package let feed: PostFeed
    package let cache: VideoCache

    package init(feed: PostFeed, cache: VideoCache) {
        self.feed = feed
        self.cache = cache
    }

    /// Which posts, and how the reel looks and sounds.
    package struct Options: Sendable {
        /// Posts created at or after this.
        package var since: Date
        /// Only the answers to this question (compared without case and outer blanks).
        package var prompt: String?
        /// Posts the operator hid too.
        package var includeHidden = false
        /// The reel's picture size and rate; nil takes the first post's (at most 1920x1080).
        package var size: (width: Int, height: Int)?
        package var frameRate: Int?
        package var cardSeconds = 2.5
        /// Seconds each card and post fades in and out, through the cards' colour (0: cuts).
        package var fadeSeconds = 0.0
        /// The loudness every post is brought to (LUFS); -16 suits phones and laptops.
        package var loudness = -16.0
        package var encoder = EncoderSettings()

        package init(since: Date) { self.since = since }
    }

    /// What went into the reel and what did not.
    package struct Report: Sendable, Encodable, Equatable {
        package var path: String
        package var since: String
        /// The posts in the reel, oldest first, each with the gain its sound was given (dB).
        package var posts: [Part] = []
        /// Posts that could not be read (id: why); the rest are in the reel.
        package var skipped: [String: RecorderError] = [:]
        package var seconds = 0.0
        package var width = 0
        package var height = 0
        package var frameRate = 0
        package var loudnessTarget = 0.0

        package struct Part: Sendable, Codable, Equatable {
            package var id: String
            package var seconds: Double
            /// The post's own loudness (LUFS) and the gain it was given; nil for a post without sound.
            package var loudness: Double?
            package var gain: Double
        }
    }

    /// Makes the reel at `target` (a new file). `progress` hears each step.
    package func make(into target: String, options: Options, progress: (String) -> Void = { _ in }) throws(RecorderError) -> Report {
        if FileSystem.status(of: target) != nil {
            throw .reel(.targetExists(path: target))
        }
        guard (-40.0 ... -5.0).contains(options.loudness) else {
            throw .reel(.loudnessOutOfRange(options.loudness))
        }
        guard (0.5...10).contains(options.cardSeconds) else {
            throw .reel(.cardSecondsOutOfRange(options.cardSeconds))
        }
        guard (0...2).contains(options.fadeSeconds) else {
            throw .reel(.fadeOutOfRange(options.fadeSeconds))
        }
        var report = Report(path: target, since: RFC3339.string(options.since), loudnessTarget: options.loudness)
        let chosen = try posts(options, skipped: &report.skipped)

        // Every post fetched, checked and measured before the first picture is written.
        var ready: [(metadata: PostMetadata, loudness: ReelWriter.Loudness?)] = []
        for (i, metadata) in chosen.enumerated() {
            progress("checking \(i + 1)/\(chosen.count): \(metadata.id)")
            do throws(RecorderError) {
                let video = try cache.video(for: metadata, from: feed.store)
                let loudness: ReelWriter.Loudness?
                do throws(MediaError) { loudness = try ReelWriter.loudness(of: video.path) } catch {
                    throw .reel(.unreadableVideo(error))
                }
                ready.append((metadata, loudness))
            } catch {
                report.skipped[metadata.id] = error
            }
        }
        guard let first = ready.first else {
            throw .reel(.nothingToShow(since: report.since, prompt: options.prompt, store: feed.location, skipped: report.skipped))
        }
        var format = ReelWriter.Format(width: options.size?.width ?? min(first.metadata.width, 1920) & ~1,
                                       height: options.size?.height ?? min(first.metadata.height, 1080) & ~1,
                                       frameRate: options.frameRate ?? Self.frameRate(first.metadata.frameRate))
        if format.width < 16 || format.height < 16 { (format.width, format.height) = (1280, 720) }
        (report.width, report.height, report.frameRate) = (format.width, format.height, format.frameRate)

        let partial = target + ".partial-\(Posix.processID)"
        let scratch = partial + ".cards"
        do throws(Descriptors.Errno) { try Posix.mkdir(scratch, mode: 0o700) } catch {
            throw .reel(.cannotMakeScratch(path: scratch, errno: error.code))
        }
        defer { FileSystem.removeScratch(scratch) }
        var finished = false
        // A reel that failed: its partial file goes (best effort: named by this process, hidden by no one).
        defer { if !finished { try? Posix.unlink(partial) } }
        // A post that cannot be added after all: the reel is not made, and this says which.
        var unaddable: RecorderError?
        do throws(MediaError) {
            var options = options
            options.encoder.overlay = nil
            let writer = try ReelWriter(path: partial, format: format, settings: options.encoder, scratch: scratch)
            for (i, post) in ready.enumerated() {
                let gain = post.loudness.map { Self.gain(from: $0, to: options.loudness) } ?? 0
                progress("adding \(i + 1)/\(ready.count): \(post.metadata.id)\(post.loudness.map { String(cFormat: " (%.1f LUFS, %+.1f dB)", $0.integrated, gain) } ?? " (no sound)")")
                try writer.appendCard(Self.card(for: post.metadata, width: format.width, height: format.height), seconds: options.cardSeconds, fade: options.fadeSeconds)
                // Through the cache again: an event's posts can be more than the cache holds, and the
                // ones checked first may have made room for the later ones (fetched and checked again).
                let seconds: Double
                do throws(RecorderError) {
                    let video = try cache.video(for: post.metadata, from: feed.store)
                    do throws(MediaError) { seconds = try writer.appendClip(video.path, gain: gain, fade: options.fadeSeconds) } catch {
                        throw RecorderError(error)
                    }
                } catch {
                    unaddable = .reel(.cannotAdd(id: post.metadata.id, error))
                    throw MediaError(.badInput, .postNotAdded(id: post.metadata.id))
                }
                report.posts.append(.init(id: post.metadata.id, seconds: seconds, loudness: post.loudness?.integrated, gain: gain))
            }
            try writer.finish()
            report.seconds = writer.seconds
        } catch {
            throw unaddable ?? RecorderError(error)
        }
        do throws(StorageError) {
            try LocalFiles.syncFile(partial)
            // link(2) fails if the name was taken meanwhile: a reel made since is never replaced.
            try LocalFiles.run("link", target) { () throws(Descriptors.Errno) in try Posix.link(partial, to: target) }
            try LocalFiles.syncDirectory(of: target)
        } catch {
            throw .reel(.cannotPlace(target: target, error))
        }
        finished = true
        // The reel is linked at its name; the partial name only takes no room (the same file).
        try? Posix.unlink(partial)
        return report
    }

    /// A post's frame rate as the reel's: read from the store, so anything (NaN, 1e300) is
    /// possible there; 30 unless it is a rate from 1 to 60.
    static func frameRate(_ rate: Double) -> Int {
        rate.isFinite && rate >= 1 && rate <= 60 ? Int(rate.rounded()) : 30
    }

    /// The gain that brings `loudness` to `target`, held down so the true peak stays at or below
    /// -1 dBTP: a quiet post with loud peaks ends a little under the target, never clipped.
    package static func gain(from loudness: ReelWriter.Loudness, to target: Double) -> Double {
        min(target - loudness.integrated, -1 - loudness.truePeak)
    }

    /// The posts made since `options.since`, oldest first, as the options choose.
    private func posts(_ options: Options, skipped: inout [String: RecorderError]) throws(RecorderError) -> [PostMetadata] {
        var entries: [FeedEntry] = []
        try feed.forEachPost(since: options.since, unreadable: &skipped) { entry throws(RecorderError) in entries.append(entry) }
        if options.includeHidden {
            // (newest first: the event's hidden posts are among the newest thousand)
            entries += try feed.hiddenPosts(size: PostFeed.maximumPageSize).filter { RFC3339.date($0.createdAt).map { $0 >= options.since } ?? false }
        }
        var chosen: [PostMetadata] = []
        for entry in entries {
            if let problem = entry.problem {
                skipped[entry.id] = .feed(.unreadableEntry(id: entry.id, problem: problem))
                continue
            }
            if let wanted = options.prompt, Self.folded(entry.prompt ?? "") != Self.folded(wanted) { continue }
            do throws(RecorderError) { chosen.append(try feed.metadata(id: entry.id)) } catch { skipped[entry.id] = error }
        }
        return chosen.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }
    }

    private static func folded(_ text: String) -> String { text.trimmed().lowercased() }

    /// The title card of a post: the guest's words in quotation marks (wrapped, at most three
    /// lines), the question they answer, and when it was made (this machine's time zone).
    static func card(for metadata: PostMetadata, width: Int, height: Int) -> [ReelWriter.CardLine] {
        var lines: [ReelWriter.CardLine] = []
        // About 0.55 of the type size per character: the lines that fit across 90% of the picture.
        func wrapped(_ text: String, size: Double, maxLines: Int) -> [String] {
            let fits = max(8, Int(Double(width) * 0.9 / (0.55 * size * Double(height))))
            return Self.wrap(text, width: fits, maxLines: maxLines)
        }
        let caption = Self.printable(metadata.caption)
        if !caption.isEmpty {
            // (each line's words isolated, FSI ... PDI, in the marks: right-to-left words are laid
            // out as they are read, and the marks stay where the card's reader expects them)
            var quoted = wrapped("\u{201C}\(caption)\u{201D}", size: 0.075, maxLines: 3)
            for index in quoted.indices {
                var line = Substring(quoted[index])
                let (opens, closes) = (line.hasPrefix("\u{201C}"), line.hasSuffix("\u{201D}"))
                if opens { line = line.dropFirst() }
                if closes { line = line.dropLast() }
                quoted[index] = (opens ? "\u{201C}" : "") + "\u{2068}" + line + "\u{2069}" + (closes ? "\u{201D}" : "")
            }
            for line in quoted { lines.append(.init(line, size: 0.075)) }
        }
        if let prompt = metadata.prompt.map(Self.printable), !prompt.isEmpty {
            for line in wrapped(prompt, size: 0.045, maxLines: 2) { lines.append(.init(line, size: 0.045)) }
        }
        if let created = RFC3339.date(metadata.createdAt) { lines.append(.init(Self.localTime(created), size: 0.04)) }
        return lines
    }

    /// `text` in lines of at most `width` characters, broken at spaces where it can, the last of
    /// `maxLines` ending in "…" when more was left.
    static func wrap(_ text: String, width: Int, maxLines: Int) -> [String] {
        var lines: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true) {
            var word = String(word)
            while word.count > width {
                if !current.isEmpty { lines.append(current); current = "" }
                lines.append(String(word.prefix(width)))
                word = String(word.dropFirst(width))
            }
            if current.isEmpty { current = word } else if current.count + 1 + word.count <= width { current += " " + word } else {
                lines.append(current)
                current = word
            }
        }
        if !current.isEmpty { lines.append(current) }
        if lines.count > maxLines {
            lines = Array(lines.prefix(maxLines))
            lines[maxLines - 1] = String(lines[maxLines - 1].prefix(width - 1)) + "\u{2026}"
        }
        return lines
    }

    /// Text from the store as one line a card can draw: control characters become spaces; emoji
    /// stay (the card draws them, `CardSubtitle`), but not their skin tones, which a card drawn in
    /// one colour would show as a swatch beside each.
    static func printable(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let properties = scalar.properties
            if properties.generalCategory == .control || properties.generalCategory == .lineSeparator || properties.generalCategory == .paragraphSeparator {
                kept.append(" ")
            } else if (0x1F3FB...0x1F3FF).contains(scalar.value) {
                continue
            } else {
                kept.append(scalar)
            }
        }
        return String(kept).split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// "Sat 24 Nov, 18:04" in this machine's time zone (TZ, else /etc/localtime).
    static func localTime(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        localtime_r(&seconds, &parts)
        var buffer = [CChar](repeating: 0, count: 64)
        let count = strftime(&buffer, buffer.count, "%a %e %b, %H:%M", &parts)
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self).replacing("  ", with: " ")
    }
}
