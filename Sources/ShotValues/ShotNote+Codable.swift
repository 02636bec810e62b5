package import MediaValues
package import StoreValues

// The notes' and faults' JSON, written out: the shape Swift's synthesized Codable gives an enum
// with data (`{"case": {"field": value}}`, `{"case": {}}` for none), which shot.json and `--json`
// have always had (Tests/*/Snapshots/shot-notes-json.txt). Written by hand because the synthesized
// one makes a key type with its own conformances for every case: 130 KB of the release binary for
// these 37 cases, which its 24 MiB limit has no room for.

extension ShotNote: Codable {
    package func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: CaseKey.self)
        func fields(_ name: String) -> KeyedEncodingContainer<CaseKey> { outer.nestedContainer(keyedBy: CaseKey.self, forKey: CaseKey(name)) }
        switch self {
        case .noCamera: _ = fields("noCamera")
        case .closestSize(let asked, let offered):
            var c = fields("closestSize")
            try c.encode(asked, forKey: CaseKey("asked"))
            try c.encode(offered, forKey: CaseKey("offered"))
        case .closestRate(let asked, let offered, let size):
            var c = fields("closestRate")
            try c.encode(asked, forKey: CaseKey("asked"))
            try c.encode(offered, forKey: CaseKey("offered"))
            try c.encode(size, forKey: CaseKey("size"))
        case .sizeAdjusted(let width, let height):
            var c = fields("sizeAdjusted")
            try c.encode(width, forKey: CaseKey("width"))
            try c.encode(height, forKey: CaseKey("height"))
        case .formatSwitched(let format):
            var c = fields("formatSwitched")
            try c.encode(format, forKey: CaseKey("format"))
        case .convertedInSoftware(let format):
            var c = fields("convertedInSoftware")
            try c.encode(format, forKey: CaseKey("format"))
        case .noSoundFromFile: _ = fields("noSoundFromFile")
        case .noMicrophone(let camera):
            var c = fields("noMicrophone")
            try c.encode(camera, forKey: CaseKey("camera"))
        case .microphoneUnopenable(let fault):
            var c = fields("microphoneUnopenable")
            try c.encode(fault, forKey: CaseKey("fault"))
        case .soundStoppedEarly(let stop):
            var c = fields("soundStoppedEarly")
            try c.encode(stop, forKey: CaseKey("stop"))
        case .silentTake(let loudestDBFS, let silentBelowDBFS):
            var c = fields("silentTake")
            try c.encode(loudestDBFS, forKey: CaseKey("loudestDBFS"))
            try c.encode(silentBelowDBFS, forKey: CaseKey("silentBelowDBFS"))
        case .clippedTake(let clippedPercent):
            var c = fields("clippedTake")
            try c.encode(clippedPercent, forKey: CaseKey("clippedPercent"))
        case .framesRepeated(let count):
            var c = fields("framesRepeated")
            try c.encode(count, forKey: CaseKey("count"))
        case .diskFilled(let keptSeconds, let askedSeconds, let droppedBytes):
            var c = fields("diskFilled")
            try c.encode(keptSeconds, forKey: CaseKey("keptSeconds"))
            try c.encode(askedSeconds, forKey: CaseKey("askedSeconds"))
            try c.encode(droppedBytes, forKey: CaseKey("droppedBytes"))
        case .remuxFailed(let fault):
            var c = fields("remuxFailed")
            try c.encode(fault, forKey: CaseKey("fault"))
        case .leftoversRemoved(let path):
            var c = fields("leftoversRemoved")
            try c.encode(path, forKey: CaseKey("path"))
        case .deletionFinished(let id):
            var c = fields("deletionFinished")
            try c.encode(id, forKey: CaseKey("id"))
        case .deletionUnfinished(let id, let fault):
            var c = fields("deletionUnfinished")
            try c.encode(id, forKey: CaseKey("id"))
            try c.encode(fault, forKey: CaseKey("fault"))
        case .commitFinished(let id, let keptBeside):
            var c = fields("commitFinished")
            try c.encode(id, forKey: CaseKey("id"))
            try c.encode(keptBeside, forKey: CaseKey("keptBeside"))
        case .shotSetAside(let id, let why, let waiting):
            var c = fields("shotSetAside")
            try c.encode(id, forKey: CaseKey("id"))
            try c.encode(why, forKey: CaseKey("why"))
            try c.encode(waiting, forKey: CaseKey("waiting"))
        case .shotLeftInPlace(let id, let why, let moving, let folder):
            var c = fields("shotLeftInPlace")
            try c.encode(id, forKey: CaseKey("id"))
            try c.encode(why, forKey: CaseKey("why"))
            try c.encode(moving, forKey: CaseKey("moving"))
            try c.encode(folder, forKey: CaseKey("folder"))
        case .emptyRecordingRemoved: _ = fields("emptyRecordingRemoved")
        case .recordingNotCutBack(let errno):
            var c = fields("recordingNotCutBack")
            try c.encode(errno, forKey: CaseKey("errno"))
        case .shortRecordingRemoved(let seconds, let minimumSeconds):
            var c = fields("shortRecordingRemoved")
            try c.encode(seconds, forKey: CaseKey("seconds"))
            try c.encode(minimumSeconds, forKey: CaseKey("minimumSeconds"))
        case .recovered(let id, let seconds, let frames, let effectDropped, let placed):
            var c = fields("recovered")
            try c.encode(id, forKey: CaseKey("id"))
            try c.encode(seconds, forKey: CaseKey("seconds"))
            try c.encode(frames, forKey: CaseKey("frames"))
            try c.encode(effectDropped, forKey: CaseKey("effectDropped"))
            try c.encode(placed, forKey: CaseKey("placed"))
        case .recoveryWaiting(let id, let fault, let waiting):
            var c = fields("recoveryWaiting")
            try c.encode(id, forKey: CaseKey("id"))
            try c.encode(fault, forKey: CaseKey("fault"))
            try c.encode(waiting, forKey: CaseKey("waiting"))
        case .recoveryLeftInPlace(let id, let fault, let moving, let folder):
            var c = fields("recoveryLeftInPlace")
            try c.encode(id, forKey: CaseKey("id"))
            try c.encode(fault, forKey: CaseKey("fault"))
            try c.encode(moving, forKey: CaseKey("moving"))
            try c.encode(folder, forKey: CaseKey("folder"))
        case .recoveryRemoved(let id, let fault):
            var c = fields("recoveryRemoved")
            try c.encode(id, forKey: CaseKey("id"))
            try c.encode(fault, forKey: CaseKey("fault"))
        case .written(let text):
            var c = fields("written")
            try c.encode(text, forKey: CaseKey("_0"))
        }
    }

    package init(from decoder: any Decoder) throws {
        let (name, c) = try CaseKey.single(decoder, "note")
        switch name {
        case "noCamera": self = .noCamera
        case "closestSize": self = .closestSize(asked: try c.value("asked"), offered: try c.value("offered"))
        case "closestRate": self = .closestRate(asked: try c.value("asked"), offered: try c.value("offered"), size: try c.value("size"))
        case "sizeAdjusted": self = .sizeAdjusted(width: try c.value("width"), height: try c.value("height"))
        case "formatSwitched": self = .formatSwitched(format: try c.value("format"))
        case "convertedInSoftware": self = .convertedInSoftware(format: try c.value("format"))
        case "noSoundFromFile": self = .noSoundFromFile
        case "noMicrophone": self = .noMicrophone(camera: try c.value("camera"))
        case "microphoneUnopenable": self = .microphoneUnopenable(fault: try c.value("fault"))
        case "soundStoppedEarly": self = .soundStoppedEarly(stop: try c.value("stop"))
        case "silentTake": self = .silentTake(loudestDBFS: try c.value("loudestDBFS"), silentBelowDBFS: try c.value("silentBelowDBFS"))
        case "clippedTake": self = .clippedTake(clippedPercent: try c.value("clippedPercent"))
        case "framesRepeated": self = .framesRepeated(count: try c.value("count"))
        case "diskFilled": self = .diskFilled(keptSeconds: try c.value("keptSeconds"), askedSeconds: try c.value("askedSeconds"), droppedBytes: try c.value("droppedBytes"))
        case "remuxFailed": self = .remuxFailed(fault: try c.value("fault"))
        case "leftoversRemoved": self = .leftoversRemoved(path: try c.value("path"))
        case "deletionFinished": self = .deletionFinished(id: try c.value("id"))
        case "deletionUnfinished": self = .deletionUnfinished(id: try c.value("id"), fault: try c.value("fault"))
        case "commitFinished": self = .commitFinished(id: try c.value("id"), keptBeside: try c.value("keptBeside"))
        case "shotSetAside": self = .shotSetAside(id: try c.value("id"), why: try c.value("why"), waiting: try c.value("waiting"))
        case "shotLeftInPlace": self = .shotLeftInPlace(id: try c.value("id"), why: try c.value("why"), moving: try c.value("moving"), folder: try c.value("folder"))
        case "emptyRecordingRemoved": self = .emptyRecordingRemoved
        case "recordingNotCutBack": self = .recordingNotCutBack(errno: try c.value("errno"))
        case "shortRecordingRemoved": self = .shortRecordingRemoved(seconds: try c.value("seconds"), minimumSeconds: try c.value("minimumSeconds"))
        case "recovered": self = .recovered(id: try c.value("id"), seconds: try c.value("seconds"), frames: try c.value("frames"), effectDropped: try c.value("effectDropped"), placed: try c.value("placed"))
        case "recoveryWaiting": self = .recoveryWaiting(id: try c.value("id"), fault: try c.value("fault"), waiting: try c.value("waiting"))
        case "recoveryLeftInPlace": self = .recoveryLeftInPlace(id: try c.value("id"), fault: try c.value("fault"), moving: try c.value("moving"), folder: try c.value("folder"))
        case "recoveryRemoved": self = .recoveryRemoved(id: try c.value("id"), fault: try c.value("fault"))
        case "written": self = .written(try c.value("_0"))
        default: throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no note is called \(name)"))
        }
    }
}

extension ShotNote.Unfinished: Codable {
    package func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: CaseKey.self)
        func fields(_ name: String) -> KeyedEncodingContainer<CaseKey> { outer.nestedContainer(keyedBy: CaseKey.self, forKey: CaseKey(name)) }
        switch self {
        case .shotFileUnreadable(let path):
            var c = fields("shotFileUnreadable")
            try c.encode(path, forKey: CaseKey("path"))
        case .shotFileDamaged(let path):
            var c = fields("shotFileDamaged")
            try c.encode(path, forKey: CaseKey("path"))
        case .failed(let fault):
            var c = fields("failed")
            try c.encode(fault, forKey: CaseKey("fault"))
        }
    }

    package init(from decoder: any Decoder) throws {
        let (name, c) = try CaseKey.single(decoder, "reason")
        switch name {
        case "shotFileUnreadable": self = .shotFileUnreadable(path: try c.value("path"))
        case "shotFileDamaged": self = .shotFileDamaged(path: try c.value("path"))
        case "failed": self = .failed(fault: try c.value("fault"))
        default: throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no reason is called \(name)"))
        }
    }
}

extension ShotFault: Codable {
    package func encode(to encoder: any Encoder) throws {
        var outer = encoder.container(keyedBy: CaseKey.self)
        func fields(_ name: String) -> KeyedEncodingContainer<CaseKey> { outer.nestedContainer(keyedBy: CaseKey.self, forKey: CaseKey(name)) }
        switch self {
        case .media(let error):
            var c = fields("media")
            try c.encode(error, forKey: CaseKey("error"))
        case .storage(let error):
            var c = fields("storage")
            try c.encode(error, forKey: CaseKey("error"))
        case .microphone(let error):
            var c = fields("microphone")
            try c.encode(error, forKey: CaseKey("error"))
        case .system(let call, let errno):
            var c = fields("system")
            try c.encode(call, forKey: CaseKey("call"))
            try c.encode(errno, forKey: CaseKey("errno"))
        case .other(let kind, let failure):
            var c = fields("other")
            try c.encode(kind, forKey: CaseKey("kind"))
            try c.encode(failure, forKey: CaseKey("failure"))
        }
    }

    package init(from decoder: any Decoder) throws {
        let (name, c) = try CaseKey.single(decoder, "fault")
        switch name {
        case "media": self = .media(error: try c.value("error"))
        case "storage": self = .storage(error: try c.value("error"))
        case "microphone": self = .microphone(error: try c.value("error"))
        case "system": self = .system(call: try c.value("call"), errno: try c.value("errno"))
        case "other": self = .other(kind: try c.value("kind"), failure: try c.value("failure"))
        default: throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no fault is called \(name)"))
        }
    }
}
