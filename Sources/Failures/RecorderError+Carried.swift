package import MediaValues
package import StoreValues
package import SystemSupport

// The errors `RecorderError` carries as cases: inside another failure's data, each is that failure.
extension RecorderError: FailureCarried {
    package var wrapped: RecorderError { self }
}

extension MediaError: FailureCarried {
    package var wrapped: RecorderError { .media(self) }
}

extension StorageError: FailureCarried {
    package var wrapped: RecorderError { .storage(self) }
}

/// A device's kinds of failure, each family carried by its own case (`CaptureError` by
/// `capture`, `AudioError` by `audio`).
package protocol DeviceFailureKind: DeviceErrorKind {
    static func carried(_ error: DeviceError<Self>) -> RecorderError
}

extension CaptureFailure: DeviceFailureKind {
    package static func carried(_ error: CaptureError) -> RecorderError { .capture(error) }
}

extension AudioFailure: DeviceFailureKind {
    package static func carried(_ error: AudioError) -> RecorderError { .audio(error) }
}

extension DeviceError: FailureCarried where Kind: DeviceFailureKind {
    package var wrapped: RecorderError { Kind.carried(self) }
}
