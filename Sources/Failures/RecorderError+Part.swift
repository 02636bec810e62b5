import SystemSupport
import StoreValues
import MediaValues

extension RecorderError {
    /// The part that failed, when it was the camera, the microphone or the encoder: what an edge
    /// needs of a lower error beyond its kind (a guest is told "the camera is busy", not how),
    /// without naming the capture or media modules' types.
    package enum Part: Sendable, Equatable {
        /// The camera; `busy`: another program has it.
        case camera(busy: Bool)
        /// The microphone; `busy`: another program has it.
        case microphone(busy: Bool)
        /// The encoder or the file it writes; `diskFull`: the disk filled up.
        case encoder(diskFull: Bool)
        /// The store.
        case store
    }

    /// Which part the lower error behind this failure came from; nil for the core's own failure.
    package var failedPart: Part? {
        switch cause?.carried {
        case .capture(let error):
            if case .busy = error.kind { return .camera(busy: true) }
            return .camera(busy: false)
        case .audio(let error):
            if case .busy = error.kind { return .microphone(busy: true) }
            return .microphone(busy: false)
        case .media(let error): return .encoder(diskFull: error.kind == .diskFull)
        case .storage: return .store
        case .own, nil: return nil
        }
    }
}

extension RecorderError {
    /// Whether the list of the machine's cameras and microphones helps with this failure (a device
    /// not found, lost, or not a camera): each edge says where its user finds that list.
    package var listingHelps: Bool {
        switch carried {
        case .capture(let error): error.listingHelps
        case .audio(let error): error.listingHelps
        case .media, .storage, .own: false
        }
    }
}
