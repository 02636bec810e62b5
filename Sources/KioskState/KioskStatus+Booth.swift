/// What the booth's token is shown of the status (`GET /api/status` and the event stream): what
/// the booth's page needs and nothing of the store's or the outbox's insides. Whoever takes the
/// token from the booth's screen learns no queued post's id, no store address (`lastUploadedURL`)
/// and no outbox path (the last upload's error, the store's out-of-service message, the disk's path).
extension KioskStatus {
    /// The booth's view: the outbox's counts, and the last uploaded post's id only while it is the
    /// post the current guest shares (`sharedPost` says which: the thank-you's link).
    package func boothView(sharedPost: (String) -> Bool) -> KioskStatus {
        var view = self
        view.outbox.queued = []
        view.outbox.uploading = nil
        view.outbox.lastError = nil
        view.outbox.lastUploadedURL = nil
        if let last = outbox.lastUploaded, !sharedPost(last) { view.outbox.lastUploaded = nil }
        view.service = service.map { OutOfService($0.causes.map(\.boothView)) }
        return view
    }
}

extension OutOfService.Cause {
    /// The cause with its numbers and without its words or paths (the operator's).
    var boothView: OutOfService.Cause {
        switch self {
        case .cameraMissing: .cameraMissing("")
        case .diskNearlyFull(_, let free, let needed): .diskNearlyFull(path: "", free: free, needed: needed)
        case .storeFailing(let queued, let waiting, _): .storeFailing(queued: queued, waiting: waiting, lastError: "")
        }
    }
}
