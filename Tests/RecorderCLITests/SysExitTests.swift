import Settings
@testable import RecorderCLI
import SystemSupport
import Testing
import VideoCapture
import MediaValues
import Failures

/// The CLI's exit statuses (sysexits) for what happened: the numbers scripts and systemd read, the
/// same as before the core named its failures by kind (issue 28).
@Suite struct SysExitTests {
    @Test func everyKindHasItsStatus() {
        let statuses: [RecorderError.Kind: Int32] = [
            .invalidRequest: 64, .badData: 65, .notFound: 66, .unavailable: 69, .internalFailure: 70, .cannotWrite: 73,
            .ioFailure: 74, .busy: 75, .denied: 77, .misconfigured: 78, .interrupted: 130,
        ]
        for kind in RecorderError.Kind.allCases {
            #expect(SysExit(kind).rawValue == statuses[kind], "\(kind)")
        }
    }

    /// What SubjectTests' `captureErrorsMapToKinds` checks, down to the status.
    @Test func captureErrorsMapToSysexits() {
        let cases: [(CaptureFailure, SysExit)] = [
            (.noSuchDevice, .noInput), (.notACaptureDevice, .noInput), (.permissionDenied(group: "video"), .noPermission),
            (.busy, .tempFail), (.disconnected, .unavailable), (.stalled(seconds: 5), .unavailable),
            (.unsupportedFormat, .usage), (.badInput, .dataError),
        ]
        for (kind, status) in cases {
            #expect(RecorderError(CaptureError(kind, device: "/dev/video0", operation: "x")).exitStatus == status)
        }
    }
}
