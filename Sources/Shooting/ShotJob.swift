import AudioCapture
import FoundationEssentials
import Glibc
import MediaEncoder
import StorageUpload
internal import SystemSupport
import VideoCapture
import Settings
import MediaValues
import Failures
import DurableFiles
import ShotValues

/// The blocking work of one shot: open, record, finish, release. It is made, used and let go on
/// the shot's own thread (CameraManager's `run`), so it is not Sendable: the compiler keeps it there.
final class ShotJob {
    let request: ShotRequest
    let workspace: ShotWorkspace
    let stop: StopSignal
    /// Gets a copy of a frame now and then, for the kiosk's live preview.
    let preview: PreviewTap?
    /// Counts every frame the camera delivers (the kiosk's), whether anybody watches or not.
    let tally: FrameTally?
    /// When the shot was made, for its record.
    let clock: any RecorderClock
    private var lock: FileLock?
    private var draft: ShotDraft?
    private var source: (any FrameSource)?
    /// The microphone or the test beep; nil for a silent shot.
    private var audio: (any AudioSource)?
    private var recorder: MP4Encoder?
    private(set) var notes: [ShotNote] = []
    private(set) var cleaned: [String] = []
    private var ending: ShotEnding?
    private var cameraLost: RecorderError?
    private var diskFull: MediaError?
    /// The capture time a shot that ran its full length ends at: the first frame's plus the asked
    /// length. Frames the camera dropped just before it do not shorten the clip.
    private var endTimestamp: Int64?
    /// The take's sound levels, for the silent-take guard.
    private var soundCheck = SoundCheck()

    init(request: ShotRequest, workspace: ShotWorkspace, stop: StopSignal, preview: PreviewTap? = nil, tally: FrameTally? = nil,
         clock: any RecorderClock = .system) {
        self.request = request
        self.workspace = workspace
        self.stop = stop
        self.preview = preview
        self.tally = tally
        self.clock = clock
    }

    deinit { release() }

    /// Lets go of the camera, the encoder and the workspace lock; safe to call more than once.
    func release() {
        recorder?.abandon()
        recorder = nil
        audio?.close()
        audio = nil
        source?.close()
        source = nil
        lock = nil
    }

    /// Takes the workspace, clears leftovers, opens the source and the encoder.
    func open() throws(RecorderError) {
        try workspace.prepare()
        let lock = try workspace.lock()
        // What a failed or killed shot left is recovered (kept beside the current shot) before
        // cleaning, here too: the kiosk recovers only at its start, and cleaning deletes drafts.
        notes.append(contentsOf: ShotSalvage.recover(workspace, besideCurrent: true).notes)
        cleaned = workspace.cleanStale()
        try checkFreeSpace()
        let draft = try workspace.beginShot()
        self.lock = consume lock
        self.draft = draft
        do {
            if let given = request.consent {
                try ConsentText.write(given.consent, text: given.text, into: draft.directory)
            }
            // FFmpeg before the camera: opening it takes a moment (seconds under emulation), and a
            // camera streaming meanwhile would drop the frames its buffers cannot hold.
            try FFmpegLibraries.load()
            let (source, sourceNotes) = try SourceSelector.open(request)
            self.source = source
            notes += sourceNotes
            let (audio, audioNotes) = try AudioSelector.open(request.audio, for: source)
            self.audio = audio
            notes += audioNotes
            recorder = try MP4Encoder(path: draft.recordingPath, input: source.format, settings: request.encoder,
                                      audio: audio?.format)
            if let path = ProcessInfo.processInfo.environment["RECORDER_FRAME_LOG"], !path.isEmpty {
                let log = FrameLog(path: path)
                recorder?.onFrameRecorded = { log.record($0) }
            }
        } catch {
            audio?.close()
            audio = nil
            source?.close()
            source = nil
            // Nothing was recorded: no leftover for the next start to report as interrupted.
            discardDraft()
            throw RecorderError.wrap(error)
        }
    }

    /// Removes this shot's folder, recording and all: only for a shot that has nothing to keep.
    private func discardDraft() {
        recorder?.abandon()
        recorder = nil
        if let draft { FileSystem.removeTreeIfThere(draft.directory) }
        draft = nil
    }

    /// Pulls frames until the asked duration, a stop, the end of the input, or a lost camera.
    func record(progress: (ShotProgress) -> Void) throws(RecorderError) {
        guard let source, let recorder else { return }
        let limit = Int64(request.seconds * 1_000_000)
        var first: Int64?
        var reachedLimit = false
        var elapsed: Int64 = 0
        var lastAdmitted: Int64?
        var meter = audio.map { AudioLevelMeter(format: $0.format, windowFrames: $0.format.sampleRate / 10) }
        var soundLevel: AudioLevel?
        var hold = AudioLevelHold()
        // Admits frames until the asked duration is reached, timed from the first frame.
        func admit(_ stamp: FrameStamp) -> Bool {
            let start = first ?? stamp.timestampMicroseconds
            first = start
            elapsed = stamp.timestampMicroseconds - start
            reachedLimit = elapsed >= limit
            if reachedLimit { endTimestamp = start + limit } else { lastAdmitted = stamp.timestampMicroseconds }
            return !reachedLimit
        }
        // Sound from the moment the picture starts: the microphone opens its stream now.
        do { try audio?.start() } catch { throw RecorderError(error) }
        // A file of planar 4:2:0 is read straight into the encoder's pictures: no buffer, no copy.
        let planarSource = recorder.readsPlanarFrames ? source as? any PlanarReadingSource : nil
        do throws(RecorderError) {
            while !reachedLimit {
                let delivered: Bool
                if let planarSource {
                    // The encoder lends its next picture; the source reads the frame into it; this
                    // loop decides whether it is recorded. (Neither calls into the other.)
                    let picture: PlanarPicture
                    do throws(MediaError) { picture = try recorder.reservePicture() } catch { throw .media(error) }
                    let stamp: FrameStamp?
                    do throws(CaptureError) { stamp = try planarSource.readFrame(into: picture, stop: stop) } catch {
                        recorder.releasePicture()
                        throw .capture(error)
                    }
                    do throws(MediaError) {
                        if let stamp, admit(stamp) { try recorder.commitPicture(stamp) } else { recorder.releasePicture() }
                    } catch { throw .media(error) }
                    if let stamp { tally?.count(stamp, nominalFPS: source.format.frameRate.value) }
                    delivered = stamp != nil
                } else {
                    // The encoder's failure is kept and thrown once the source has its buffer back.
                    var encoding: MediaError?
                    do throws(CaptureError) {
                        delivered = try source.nextFrame(stop: stop) { frame in
                            tally?.count(frame.stamp, nominalFPS: frame.format.frameRate.value)
                            preview?.offer(frame)
                            guard admit(frame.stamp) else { return }
                            do throws(MediaError) { try recorder.append(frame) } catch { encoding = error }
                        }
                    } catch {
                        throw encoding.map(RecorderError.media) ?? .capture(error)
                    }
                    if let encoding { throw .media(encoding) }
                }
                if delivered, let audio, let lastAdmitted {
                    let chunks = audio.take(until: lastAdmitted)
                    for chunk in chunks {
                        for level in meter?.levels(of: chunk) ?? [] {
                            soundLevel = hold.add(level)
                            soundCheck.add(level)
                        }
                    }
                    do throws(MediaError) { try recorder.appendAudio(chunks) } catch { throw .media(error) }
                }
                if delivered && !reachedLimit {
                    progress(ShotProgress(elapsedSeconds: Double(elapsed) / 1_000_000, totalSeconds: request.seconds,
                                          frames: recorder.framesWritten, dropped: recorder.framesDropped,
                                          soundLevel: soundLevel.map(SoundLevel.init)))
                }
                if !delivered {
                    ending = stop.isSet ? .stopped : .endOfInput
                    break
                }
            }
        } catch .capture(let error) where (error.kind == .disconnected || error.kind.isStall) && recorder.framesWritten > 0 {
            // Keep what was recorded: finish the file and report the loss with its own kind.
            cameraLost = .capture(error)
            ending = .cameraLost
        } catch .media(let error) where error.kind == .diskFull && recorder.framesWritten > 0 {
            // Keep what fits: the fragments already on disk play; `finish` keeps them as the shot.
            diskFull = error
            ending = .diskFull
        } catch {
            if recorder.framesWritten == 0 { discardDraft() }
            throw error
        }
        source.close()
        if let audio, let lastAdmitted {
            // The sound goes on to where the picture ends: the asked length, or one frame after the last.
            let interval = Int64(1_000_000 / max(source.format.frameRate.value, 1))
            try finishAudio(audio, until: endTimestamp ?? lastAdmitted + interval, recorder: recorder)
        }
        if stop.isSet && recorder.framesWritten == 0 {
            // Nothing to keep: the draft goes now rather than as a leftover at the next start.
            discardDraft()
            throw .shot(.stoppedBeforeFirstFrame)
        }
        if recorder.framesWritten == 0 {
            // An input that ends before its first frame (a Y4M file or pipe with a header only):
            // said as such, not as the empty file's "no readable video stream", and nothing left.
            discardDraft()
            throw .shot(.inputEndedBeforeFirstFrame(source: source.name))
        }
        // A stop a moment into the shot (a Ctrl-C pressed by mistake) must not replace a good shot
        // with a few frames: under the minimum, and shorter than asked, it is discarded.
        let recorded = Double(elapsed) / 1_000_000
        // Only a shot the stop ended: one that ended by itself (end of input) is what was asked.
        if ending == .stopped && recorded < min(request.minimumSeconds, request.seconds) {
            discardDraft()
            throw .shot(.stoppedUnderMinimum(recorded: recorded, minimum: request.minimumSeconds))
        }
    }

    /// Takes the last of the sound, waiting briefly for a microphone to deliver up to `end` (it
    /// hands over a period, about 10 ms, at a time), and stops it.
    private func finishAudio(_ audio: any AudioSource, until end: Int64, recorder: MP4Encoder) throws(RecorderError) {
        let deadline = MonotonicClock.nowMicroseconds() + 300_000
        var chunks: [AudioChunk] = []
        while true {
            chunks += audio.take(until: end)
            let reached = chunks.last.map { $0.timestampMicroseconds + Int64($0.frames) * 1_000_000 / Int64(audio.format.sampleRate) >= end } ?? false
            if reached || audio.ended != nil || MonotonicClock.nowMicroseconds() >= deadline { break }
            Posix.pause(microseconds: 5_000)
        }
        do { try recorder.appendAudio(chunks) } catch { throw RecorderError(error) }
        if let ended = audio.ended {
            notes.append(.soundStoppedEarly(stop: ended.stop))
        }
        audio.close()
    }

    /// Finishes the MP4, remuxes it with the index first, and makes it the current shot.
    func finish() throws(RecorderError) -> ShotResult {
        guard let recorder, let draft, let source, lock != nil else {
            throw RecorderError(InternalFailure.illegalStateChange("finish without open"))
        }
        if let diskFull { return try keepWhatFitted(draft, source: source, recorder: recorder, error: diskFull) }
        let finished: Result<EncodingSummary, MediaError>
        do throws(MediaError) { finished = .success(try recorder.finish(endTimestamp: endTimestamp)) } catch { finished = .failure(error) }
        if case .failure(let error) = finished, error.kind == .diskFull, recorder.framesWritten > 0 {
            // The last fragment did not fit: keep the whole ones, as when the disk fills mid-shot.
            diskFull = error
            ending = .diskFull
            return try keepWhatFitted(draft, source: source, recorder: recorder, error: error)
        }
        do {
            let summary = try finished.get()
            if summary.framesRepeated > 0 {
                notes.append(.framesRepeated(count: summary.framesRepeated))
            }
            // The encoder's pictures and lookahead are the bulk of the memory; let them go before the
            // remux so the two never add up.
            self.recorder = nil
            try keepRemuxedOrFragmented(draft, endSeconds: summary.durationSeconds)
            // Before the notes are taken: the sound's verdict may add one, so may its levelling.
            var sound = shotAudio(summary)
            if let target = request.loudness, let track = sound { sound = level(draft, track, target: target) }
            let effect = makeEffect(draft, recordedRate: summary.input.frameRate.value)
            // Slow motion's stretched sound is as loud as its take no more (gating counts
            // stretched words anew): levelled again, as posted.
            if effect?.slowMotion?.soundKept == true, let target = request.loudness, let track = sound, track.loudness?.after != nil {
                sound = relevel(draft, track, target: target)
            }
            let info = try MediaProbe.inspect(draft.videoPath)
            let size = FileSystem.size(of: draft.videoPath) ?? 0
            var shot = Shot(
                id: draft.id, videoPath: draft.videoPath, createdAt: clock.date, source: source.name,
                inputFormat: summary.input.pixelFormat.name, width: info.width, height: info.height,
                frameRate: effect?.original != nil ? info.frameRate : summary.input.frameRate.value, frames: info.frameCount,
                framesDropped: summary.framesDropped,
                durationSeconds: info.durationSeconds, byteSize: size, codec: info.codec, encoder: summary.encoder,
                endedEarly: ending, notes: notes, audio: sound, consent: request.consent?.consent, prompt: request.prompt)
            shot.effect = effect
            let committed = try workspace.commit(draft, shot: shot)
            return ShotResult(shot: committed, cameraLost: cameraLost)
        } catch {
            throw RecorderError.wrap(error)
        }
    }

    /// The sound as recorded, with what the source knows: its name, overruns, an early end.
    private func shotAudio(_ summary: EncodingSummary) -> ShotAudio? {
        guard let track = summary.audio, let audio else { return nil }
        var result = ShotAudio(codec: track.codec, sampleRate: track.sampleRate, channels: track.channels, bitRate: track.bitRate,
                               source: audio.name, seconds: track.seconds, overruns: audio.overruns)
        if let ended = audio.ended {
            result.endedEarly = ended.stop
            result.endedAtSeconds = summary.firstTimestamp.map { Double(ended.atMicroseconds - $0) / 1_000_000 }
        }
        let check = soundCheck.verdict(endedEarly: audio.ended != nil)
        result.check = check
        // (an early end has its own note already)
        if check.result != "ended-early", let note = SoundCheck.note(check) { notes.append(note) }
        return result
    }

    /// The disk filled mid-shot: the recording is cut back to its last whole fragment and kept as
    /// it is (a remux would need as much room again) as the current shot; the previous shot's
    /// folder goes at once, so the disk has room again. With no whole fragment nothing is kept.
    private func keepWhatFitted(_ draft: ShotDraft, source: any FrameSource, recorder: MP4Encoder, error: MediaError) throws(RecorderError) -> ShotResult {
        let summary = recorder.partialSummary
        recorder.abandon()
        self.recorder = nil
        let size = FileSystem.size(of: draft.recordingPath) ?? 0
        guard let whole = ShotSalvage.completeLength(of: draft.recordingPath), whole > 0,
              (try? Posix.truncate(draft.recordingPath, to: whole)) != nil else {
            discardDraft()
            throw .shot(.diskFullBeforeFirstSecond(root: workspace.root))
        }
        do {
            try DurableFile.rename(draft.recordingPath, to: draft.videoPath)
            let info = try MediaProbe.inspect(draft.videoPath)
            // A few frames must not replace a good shot, as with a stop under the minimum.
            if info.durationSeconds < min(request.minimumSeconds, request.seconds) {
                discardDraft()
                throw RecorderError.shot(.diskFullUnderMinimum(root: workspace.root, recorded: info.durationSeconds, minimum: request.minimumSeconds))
            }
            notes.append(.diskFilled(keptSeconds: info.durationSeconds, askedSeconds: request.seconds, droppedBytes: size - whole))
            let shot = Shot(
                id: draft.id, videoPath: draft.videoPath, createdAt: clock.date, source: source.name,
                inputFormat: summary.input.pixelFormat.name, width: info.width, height: info.height,
                frameRate: summary.input.frameRate.value, frames: info.frameCount, framesDropped: summary.framesDropped,
                durationSeconds: info.durationSeconds, byteSize: FileSystem.size(of: draft.videoPath) ?? 0, codec: info.codec,
                encoder: summary.encoder, endedEarly: .diskFull, notes: notes, consent: request.consent?.consent, prompt: request.prompt)
            let committed = try workspace.commit(draft, shot: shot)
            _ = workspace.cleanStale()
            return ShotResult(shot: committed, cameraLost: nil, diskFull: .shot(.diskFullKeptPart(
                root: workspace.root, recorded: info.durationSeconds, asked: request.seconds, free: workspace.freeBytes())))
        } catch {
            throw RecorderError.wrap(error)
        }
    }

    /// Remuxes to faststart; when that fails for any reason, keeps the crash-safe fragmented
    /// recording (it plays) rather than leave it for the next start to delete.
    private func keepRemuxedOrFragmented(_ draft: ShotDraft, endSeconds: Double) throws(RecorderError) {
        if let failure = try draft.remuxRecording(endSeconds: endSeconds) {
            notes.append(.remuxFailed(fault: failure))
        }
    }

    /// Refuses to start a shot that cannot fit: the recording and its faststart copy both need room.
    /// A workspace on a larger disk: what helps with every disk-full failure.
    static let largerDisk = ShotFailure.largerDisk

    private func checkFreeSpace() throws(RecorderError) {
        guard let free = workspace.freeBytes() else { return }
        let needed = request.bytesNeeded
        if free < needed {
            throw .shot(.notEnoughSpace(root: workspace.root, needed: needed, free: free, seconds: request.seconds))
        }
    }
}

extension CaptureFailure {
    var isStall: Bool {
        if case .stalled = self { return true }
        return false
    }
}
