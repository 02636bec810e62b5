#if canImport(Glibc)
import Glibc
#endif
import Testing
import MediaValues
import Failures
import SystemSupport

@Suite struct ErrorMappingTests {
    /// The statuses these kinds become are checked in RecorderCLITests (`captureErrorsMapToSysexits`).
    @Test func captureErrorsMapToKinds() {
        let cases: [(CaptureFailure, RecorderError.Kind)] = [
            (.noSuchDevice, .notFound), (.notACaptureDevice, .notFound), (.permissionDenied(group: "video"), .denied),
            (.busy, .busy), (.disconnected, .unavailable), (.stalled(seconds: 5), .unavailable),
            (.unsupportedFormat, .invalidRequest), (.badInput, .badData),
        ]
        for (failure, kind) in cases {
            #expect(RecorderError(CaptureError(failure, device: "/dev/video0", operation: "x")).kind == kind)
        }
    }

    /// Joining the group is the fix (its words, naming the group, are the edges' snapshots:
    /// `CaptureError.permissionDenied`); no setting would help, so there is no advice to hide it.
    @Test func permissionDeniedIsDeniedAndAdvisesNoSetting() {
        let error = CaptureError(.permissionDenied(group: "video"), device: "/dev/video0", operation: "open", errno: EACCES)
        #expect(error.kind == .permissionDenied(group: "video") && error.advice.isEmpty && !error.listingHelps)
        #expect(RecorderError(error).kind == .denied)
    }

    @Test func errnoClassification() {
        #expect(CaptureError.from(errno: EBUSY, device: "d", operation: "o").kind == .busy)
        #expect(CaptureError.from(errno: ENODEV, device: "d", operation: "o").kind == .disconnected)
        #expect(CaptureError.from(errno: ENOENT, device: "d", operation: "o").kind == .noSuchDevice)
    }

    @Test func diskFullMediaErrorIsAnIOError() {
        let error = RecorderError(MediaError(.diskFull, .call(function: "av_write_frame", message: "No space left on device"), code: -28, path: "/x"))
        // (that the previous shot was kept is its words': the edges' snapshots, `MediaError.diskFull`)
        #expect(error.kind == .ioFailure && error.caseName == "media")
    }
}
