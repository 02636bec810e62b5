import Publishing
import Settings
import StorageUpload
import SystemSupport
import Testing
import VideoCapture
import MediaValues
import StoreValues
import Failures

/// A failure's data as `--json` gives it to scripts: the case's values by label, with their types,
/// nested failures as failures, and no secret.
@Suite struct CaseDataTests {
    @Test func aCasesValuesAreItsLabelledFieldsWithTheirTypes() {
        let data = RecorderError(PostFailure.stillQueued(id: "K7Q2", queuedIn: "/q", attempts: 3,
                                                         StorageError(.transport(code: 7), .cannotConnect(host: "s3.example.com", detail: "refused"), retryable: true))).caseData
        #expect(data["id"] == .text("K7Q2") && data["queuedIn"] == .text("/q") && data["attempts"] == .integer(3))
        // The store's error is a failure of its own (kind, case and data), not its message.
        #expect(data["cause"] == .object(["kind": .text("busy"), "failure": .text("storage"),
                                          "data": .object(["case": .text("transport"), "code": .integer(7), "retryable": .bool(true)])]))
    }

    @Test func aNestedEnumIsItsCaseAndValues() {
        let data = RecorderError(PostFailure.alreadyPosted(id: "K7Q2", whereItIs: .uploaded(at: "2026-11-27T10:00:00Z", video: "v", metadata: "m"))).caseData
        #expect(data["whereItIs"] == .object(["case": .text("uploaded"), "at": .text("2026-11-27T10:00:00Z"), "video": .text("v"), "metadata": .text("m")]))
        let unknown = RecorderError(PostFailure.alreadyPosted(id: "K7Q2", whereItIs: .unknown)).caseData
        #expect(unknown["whereItIs"] == .object(["case": .text("unknown")]))
        #expect(RecorderError(PostFailure.noSuchShot(id: "a", workspace: "/w", known: ["b", "c"])).caseData["known"] == .list([.text("b"), .text("c")]))
        #expect(RecorderError(PostFailure.storeMissing(path: "/mnt/usb")).caseData == .object(["path": .text("/mnt/usb")]))
    }

    @Test func aSecretsValueIsMaskedAndOtherValuesAreKept() {
        // Masked where the problem is made: no edge's words and no data can show it.
        let secret = RecorderError.configuration("the command line", .badValue(key: "kiosk.token", value: "Xk3q9Lw2ZtR8vB0a", rule: .token))
        #expect(secret.failure(as: ConfigurationProblem.self)?.issue == .badValue(key: "kiosk.token", value: "********", rule: .token))
        #expect(secret.caseData["value"] == .text("********") && secret.caseData["key"] == .text("kiosk.token"))
        let url = RecorderError.configuration("f:3", .badValue(key: "mail.smtp_url", value: "smtp://booth:hunter2@mail.example:99999", rule: .text))
        #expect(url.caseData["value"] == .text("smtp://booth:********@mail.example:99999"))
        let plain = RecorderError.configuration("f:2", .badValue(key: "shoot.crf", value: "99", rule: .token))
        #expect(plain.caseData["value"] == .text("99"))
        let typo = RecorderError.configuration("f:1", .unknownKey(key: "s3.bukket", suggestion: "s3.bucket"))
        #expect(typo.caseData == .object(["key": .text("s3.bukket"), "suggestion": .text("s3.bucket")]))
        #expect(RecorderError.configuration("f:1", .unknownKey(key: "zzz", suggestion: nil)).caseData["suggestion"] == .null)
    }

    @Test func aDevicesErrorIsItsFields() {
        let data = RecorderError(CaptureError(.noSuchDevice, device: "/dev/video9", operation: "open", errno: 2)).caseData
        #expect(data["device"] == .text("/dev/video9") && data["errno"] == .integer(2) && data["kind"] == .object(["case": .text("noSuchDevice")]))
    }

    @Test func valuesWithoutLabelsAreNumberedAmongThemselvesAndNonFiniteNumbersAreText() {
        enum Sample: Sendable, Equatable, Encodable { case mixed(String, key: String, Double, Double) }
        #expect(CaseData(valuesOf: Sample.mixed("a", key: "k", .nan, -.infinity))
                == .object(["value1": .text("a"), "key": .text("k"), "value2": .text("nan"), "value3": .text("-inf")]))
    }

    @Test func aNestedFailureIsItsKindCaseAndData() {
        let data = RecorderError(PostFailure.storeMissing(path: "/mnt/usb")).document
        #expect(data == .object(["kind": .text("cannotWrite"), "failure": .text("PostFailure.storeMissing"), "data": .object(["path": .text("/mnt/usb")])]))
    }
}
