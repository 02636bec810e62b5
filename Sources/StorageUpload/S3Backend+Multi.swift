package import StoreValues

extension S3Backend {
    /// Sends `count` independent requests, at most `width` at once, all from this thread through
    /// libcurl's multi interface (one easy handle from the pool per request under way), so a small
    /// kiosk keeps `width` transfers moving without a thread for each.
    ///
    /// `request(i)` gives the i-th request and its payload's SHA-256 when a handle is free, in order;
    /// `answer(i, outcome)` gets what `send` would have returned or thrown for it, on this thread,
    /// as each ends. The first error `answer` throws stops new requests; those already under way
    /// still finish and reach `answer`; then that error is thrown.
    func sendEach(count: Int, width: Int,
                  request: (Int) -> (request: HTTPRequest, payloadSHA256: String),
                  answer: (Int, Result<HTTPResponse, StorageError>) throws(StorageError) -> Void) throws(StorageError) {
        guard count > 0 else { return }
        let width = min(max(width, 1), count)
        try handles.withMulti { multi throws(StorageError) in
            try handles.withHandles(width) { entries throws(StorageError) in
                // What each handle is sending: the request's index and its transfer (kept alive until it ends).
                var running: [(index: Int, transfer: CurlHandle.Transfer)?] = Array(repeating: nil, count: width)
                var next = 0
                var firstError: StorageError?
                func settle(_ index: Int, _ outcome: Result<HTTPResponse, StorageError>) {
                    do throws(StorageError) { try answer(index, outcome) } catch { if firstError == nil { firstError = error } }
                }
                do throws(StorageError) {
                    while true {
                        for slot in 0..<width where running[slot] == nil {
                            while running[slot] == nil, firstError == nil, next < count {
                                let index = next
                                next += 1
                                let (request, payloadSHA256) = request(index)
                                do throws(StorageError) {
                                    let transfer = try prepare(request, payloadSHA256: payloadSHA256, on: entries[slot].handle)
                                    try multi.add(entries[slot].handle)
                                    running[slot] = (index, transfer)
                                } catch {
                                    // Never sent: its outcome is the failure, as `send` would have thrown it.
                                    settle(index, .failure(error))
                                }
                            }
                        }
                        guard running.contains(where: { $0 != nil }) else { break }
                        try multi.perform()
                        var ended = false
                        while let finished = multi.nextFinished() {
                            guard let slot = entries.firstIndex(where: { $0.handle.handle == finished.handle }),
                                  let (index, transfer) = running[slot] else { continue }
                            multi.remove(entries[slot].handle)
                            running[slot] = nil
                            ended = true
                            let outcome: Result<HTTPResponse, StorageError>
                            do throws(StorageError) {
                                outcome = .success(try entries[slot].handle.finish(transfer, code: finished.code))
                            } catch {
                                outcome = .failure(error)
                            }
                            settle(index, outcome)
                        }
                        // A handle that ended frees a slot for the next request: refill before waiting.
                        if !ended { try multi.poll(milliseconds: 1000) }
                    }
                } catch {
                    // The multi handle itself failed: what is under way cannot be driven further.
                    for slot in 0..<width where running[slot] != nil { multi.remove(entries[slot].handle) }
                    throw firstError ?? error
                }
                if let firstError { throw firstError }
            }
        }
    }

    /// Reads `keys` as `read(key:limit:)` does, at most `width` at once on this thread.
    package func read(keys: [String], limit: Int, width: Int,
                      _ body: (Int, Result<[UInt8]?, StorageError>) throws(StorageError) -> Void) throws(StorageError) {
        try sendEach(count: keys.count, width: width) { index in
            (readRequest(key: keys[index]), Self.emptySHA256)
        } answer: { index, outcome throws(StorageError) in
            let result: Result<[UInt8]?, StorageError>
            do throws(StorageError) {
                result = .success(try readAnswer(try outcome.get(), key: keys[index], limit: limit))
            } catch {
                result = .failure(error)
            }
            try body(index, result)
        }
    }

    /// Writes `objects` as `write(_:key:contentType:)` does, at most `width` at once on this thread.
    package func write(_ objects: [(bytes: [UInt8], key: String)], contentType: String, width: Int) throws(StorageError) {
        try sendEach(count: objects.count, width: width) { index in
            writeRequest(objects[index].bytes, key: objects[index].key, contentType: contentType)
        } answer: { index, outcome throws(StorageError) in
            try writeAnswer(try outcome.get(), key: objects[index].key)
        }
    }
}
