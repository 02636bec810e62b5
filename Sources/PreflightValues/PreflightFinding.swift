package import MediaValues
package import StoreValues
package import MediaValues
package import StoreValues

/// What a check found, with its data. One case per outcome; `status` says what it means for the
/// event. The edges word them (`PreflightWording` in the kiosk, for the operator page and the
/// CLI's table), and `--json` gives them as they are: `{"cameraWorks": {"facts": {...}}}`.
package enum PreflightFinding: Sendable, Equatable, Codable {
    // MARK: configuration: would `recorder kiosk` start with it?

    /// It would (`file`: the configuration file read, if any).
    case configurationAccepted(file: String?)
    /// It would not: the kiosk's own refusal, as the kiosk says it (`problem`).
    case configurationRefused(file: String?, problem: String)

    // MARK: camera

    /// It opened and gave a frame.
    case cameraWorks(facts: CameraFacts)
    /// The kiosk's own camera, seen through its live preview (or the shot it records).
    case cameraLive(device: String, width: Int, height: Int, pictureAgeMilliseconds: Int, recording: Bool)
    /// `setting` (`kiosk.device`) is auto and there is no camera: the booth would record its test pattern.
    case noCamera(setting: String)
    /// `setting` names the test pattern (or a file): nothing to look at, and no guest on it.
    case testPattern(setting: String, value: String)
    /// The camera cannot be used.
    case cameraUnusable(device: String, trouble: DeviceTrouble)
    /// The shot under way records from the kiosk's camera (no preview was watched, so its frames
    /// are not copied for one): `frames` so far, `dropped` of them.
    case cameraRecording(device: String, frames: Int, dropped: Int)
    /// The kiosk's preview gave no picture in time (`state`: the kiosk's record state).
    case cameraNoPicture(device: String, state: String)

    // MARK: microphone

    /// `audio.device = none`: shots are silent on purpose.
    case soundOff(setting: String)
    /// The test beep (the test pattern's own, or `audio.device = beep`): no microphone to hear.
    case testBeep
    /// `audio.device = auto` and the camera has no microphone of its own: shots are silent.
    case noMicrophone(camera: String, setting: String)
    /// It heard something, neither silent nor clipping, over `seconds`.
    case microphoneHeard(device: String, seconds: Double, loudestDBFS: Double, clippedPercent: Double)
    /// Nothing above the silent-take guard's floor over `seconds`.
    case microphoneSilent(device: String, seconds: Double, loudestDBFS: Double, floorDBFS: Double)
    /// At full scale for much of `seconds`.
    case microphoneClipping(device: String, seconds: Double, loudestDBFS: Double, clippedPercent: Double)
    /// It cannot be used.
    case microphoneUnusable(device: String, trouble: DeviceTrouble)
    /// The kiosk's meter gave no level while it listened (`state`: the kiosk's record state then).
    case microphoneNotHeard(device: String, state: String)

    // MARK: trigger (the booth's button)

    /// `kiosk.trigger` is empty.
    case noButton(setting: String)
    /// Found, opened and taken (and given back again, outside the kiosk).
    case buttonReady(device: String, name: String)
    /// Not there: unplugged, or no device matches (`choice`: the setting as it reads).
    case buttonAbsent(choice: String, setting: String)
    /// There, but it cannot be used (`why`, as the button's reader says it).
    case buttonRefused(device: String, why: String)
    /// Another program has taken it for itself (the kiosk, when it runs).
    case buttonTaken(device: String)

    // MARK: disk

    /// Room for `hoursLeft` hours of recording at `bitrateKbps` (the least of the places that keep
    /// videos), and each place's free space.
    case diskRoom(hoursLeft: Double, bitrateKbps: Int, constantQuality: Bool, shotBytes: Int64, places: [DiskPlace])

    // MARK: clock

    /// A time service runs and says the clock is synchronised.
    case clockSynchronised(now: String)
    /// A time service runs and says it is not.
    case clockNotSynchronised(now: String)
    /// No time service answers (no timedatectl, or NTP off): nothing keeps the clock right.
    case noTimeService(now: String)
    /// The clock is before this version of recorder was made: it has lost the time.
    case clockBeforeRelease(now: String, release: String)

    // MARK: store

    /// A probe was written, read back byte for byte and deleted.
    case storeRoundTrip(destination: StoreDestination, bytes: Int, milliseconds: Int)
    /// The store refused a step of the round trip.
    case storeFailed(destination: StoreDestination, step: StoreStep, fault: StoreFault)
    /// The store's settings cannot make a store (`problem`, as the configuration says it).
    case storeUnconfigured(problem: String)
    /// The round trip worked but the probe could not be deleted: it is left at `key`.
    case probeLeft(destination: StoreDestination, key: String, fault: StoreFault)

    // MARK: outbox

    /// Nothing waits for the store.
    case outboxEmpty(path: String)
    /// Posts wait for the store: how many, the oldest's age and the last error.
    /// (`lastFailure`: the last upload's failure; `lastError`: its words, as an older recorder
    /// recorded them.)
    case outboxQueued(path: String, depth: Int, oldestQueuedAt: String, oldestAgeSeconds: Int, lastFailure: StorageError?,
                      lastError: String?, elsewhere: Int)
    /// Queued entries that cannot be read (kept and skipped).
    case outboxUnreadable(path: String, entries: [String])
    /// The outbox cannot be written here: no post could be queued.
    case outboxUnwritable(path: String, errno: Int32)

    // MARK: tokens

    /// The operator's and the booth's tokens, and where the kiosk listens.
    case tokens(operatorToken: TokenState, boothToken: TokenState, listen: String, beyondLoopback: Bool)

    // MARK: share links

    /// `share.base_url` points at a host a phone can reach.
    case shareTemplate(url: String, host: String)
    /// `setting`'s address is this machine's loopback (or no address at all): no phone opens it.
    case shareUnreachable(url: String, host: String, setting: String)
    /// With the booth's Wi-Fi, `share.base_url` must be the share page the booth serves ({token}).
    case shareNotOnBoothWifi(url: String?, setting: String)
    /// Links are the S3 store's presigned ones, at `endpoint`.
    case sharePresigned(endpoint: String)
    /// Links are the kiosk's own share page at `address`.
    case sharePage(address: String)

    // MARK: tls

    /// No certificate in `directory`: the proxy serves plain http.
    case noCertificates(directory: String)
    /// Each certificate found, with its dates.
    case certificates([CertificateState])

    // MARK: wifi

    /// `kiosk.wifi_ssid` is empty: no booth Wi-Fi.
    case wifiNotConfigured(setting: String)
    /// The kiosk's settings and hostapd's file name the same network, security and password.
    case wifiMatches(file: String, name: String, security: String)
    /// They disagree on `fields`: a phone that reads the code does not join.
    case wifiDisagrees(file: String, fields: [WifiField])
    /// hostapd's file cannot be read here (root's alone): compared only where it can be.
    case hostapdUnreadable(file: String)
    /// hostapd's file is not there: the booth's Wi-Fi has no access point.
    case hostapdMissing(file: String)

    // MARK: service

    /// The unit runs (`enabled`: it starts at boot; `restarts`: since it was started).
    case serviceRunning(unit: String, enabled: Bool, restarts: Int)
    /// The unit is installed but does not run.
    case serviceDown(unit: String, state: String, subState: String)
    /// No such unit here.
    case serviceNotInstalled(unit: String)
    /// No systemd to ask.
    case noSystemd
    /// The check runs inside the kiosk itself (`underSystemd`: started by systemd).
    case serviceIsThis(pid: Int32, underSystemd: Bool)

    // MARK: any check

    /// The check did not end within its time: it is stuck, and was left.
    case timedOut(seconds: Double)

    /// What it means for the event.
    package var status: PreflightCheck.Status {
        switch self {
        case .configurationAccepted, .cameraWorks, .cameraLive, .cameraRecording, .microphoneHeard, .buttonReady, .clockSynchronised,
             .storeRoundTrip, .outboxEmpty, .shareTemplate, .sharePresigned, .sharePage, .wifiMatches, .serviceIsThis:
            return .ok
        case .configurationRefused, .noCamera, .cameraNoPicture, .buttonAbsent, .buttonRefused, .clockBeforeRelease,
             .storeFailed, .storeUnconfigured, .outboxUnwritable, .shareUnreachable, .shareNotOnBoothWifi, .wifiDisagrees,
             .hostapdMissing, .serviceDown, .timedOut:
            return .error
        case .testPattern, .noMicrophone, .microphoneSilent, .microphoneClipping, .clockNotSynchronised, .noTimeService,
             .probeLeft, .outboxQueued, .outboxUnreadable, .serviceNotInstalled, .microphoneNotHeard, .buttonTaken:
            return .warning
        case .soundOff, .testBeep, .noButton, .noCertificates, .wifiNotConfigured, .hostapdUnreadable, .noSystemd:
            return .skipped
        case .cameraUnusable(_, let trouble), .microphoneUnusable(_, let trouble):
            // Busy: most likely the kiosk itself has it (its preview, its meter); the operator
            // page checks it without taking it.
            return trouble == .busy ? .warning : .error
        case .diskRoom(let hours, _, _, let shotBytes, let places):
            if places.contains(where: { $0.freeBytes.map { $0 < shotBytes } ?? false }) || hours < DiskPlace.errorBelowHours { return .error }
            if places.contains(where: { $0.freeBytes == nil }) || hours < DiskPlace.warningBelowHours { return .warning }
            return .ok
        case .tokens(let operatorToken, let boothToken, _, let beyondLoopback):
            return TokenState.status(operatorToken: operatorToken, boothToken: boothToken, beyondLoopback: beyondLoopback)
        case .certificates(let states):
            return states.map(\.status).min() ?? .skipped
        case .serviceRunning(_, let enabled, _):
            return enabled ? .ok : .warning
        }
    }
}
