import Foundation
@testable import Preflight
import Settings
import StorageUpload
import Testing
import StoreValues
import Publishing
import PreflightValues

/// The preflight's store round trip against a real S3 server (SeaweedFS, through the fault
/// proxy): the probe's PUT, GET and DELETE as the proxy saw them, nothing left in the bucket (as
/// curl lists it), and a wrong secret refused at the first step.
@Suite(.serialized) struct S3PreflightTests: S3Suite {
    func store(_ s3: S3Fixture, _ changes: [String: String] = [:]) throws -> any StorageBackend {
        let configuration = try RecorderConfiguration(flags: [:], configFile: "/dev/null", environment: s3.environment.merging(changes) { $1 })
        return try configuration.makeBackend()
    }

    @Test func roundTripOnSeaweedFSLeavesNothing() throws {
        let s3 = try S3Fixture()
        let finding = StoreCheck.roundTrip(try store(s3))
        guard case .storeRoundTrip(let destination, let bytes, _) = finding else {
            Issue.record("\(finding)\n\(s3.requestLog())")
            return
        }
        #expect(destination == .s3(endpoint: "http://127.0.0.1:\(s3.proxyPort)", bucket: S3Fixture.bucket, prefix: ""))
        #expect(bytes > 0)
        let probes = s3.requests().filter { $0.path.hasPrefix("/\(S3Fixture.bucket)/preflight/") }
        #expect(probes.map(\.method) == ["PUT", "GET", "DELETE", "GET"], "\(probes)")
        #expect(Set(probes.map(\.path)).count == 1, "one probe, written, read, deleted and looked for: \(probes)")
        #expect(try s3.keys(prefix: "preflight/").isEmpty)
    }

    @Test func aWrongSecretIsRefusedAtTheWrite() throws {
        let s3 = try S3Fixture()
        let finding = StoreCheck.roundTrip(try store(s3, ["AWS_SECRET_ACCESS_KEY": "not-the-secret"]))
        guard case .storeFailed(_, .write, let fault) = finding else {
            Issue.record("\(finding)")
            return
        }
        #expect(fault == .denied, "\(fault)")
        #expect(finding.status == .error)
        #expect(try s3.keys(prefix: "preflight/").isEmpty)
    }
}
