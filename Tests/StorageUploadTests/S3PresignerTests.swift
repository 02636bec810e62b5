import Foundation
@testable import StorageUpload
import Testing
import StoreValues

@Suite struct S3PresignerTests {
    /// AWS's worked example, "Authenticating Requests: Using Query Parameters (AWS Signature
    /// Version 4)": GET examplebucket/test.txt, 20130524T000000Z, 86400 s, and its published signature.
    @Test func awsPublishedExample() throws {
        let configuration = S3Configuration(
            endpoint: "https://s3.amazonaws.com", region: "us-east-1", bucket: "examplebucket", pathStyle: false,
            credentials: S3Credentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", source: "AWS's example"))
        let url = try S3Presigner(configuration).url(forKey: "test.txt", expiresSeconds: 86400, at: Date(timeIntervalSince1970: 1_369_353_600))
        #expect(url == "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
                + "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z"
                + "&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
                + "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
    }

    @Test func pathStyleKeepsThePortAndPrefixAndEncodesTheKey() throws {
        let configuration = S3Configuration(
            endpoint: "http://127.0.0.1:8333/", region: "eu-west-1", bucket: "clips", prefix: "booth 1/",
            credentials: S3Credentials(accessKeyID: "key", secretAccessKey: "secret", sessionToken: "to/ken", source: "test"))
        let url = try S3Presigner(configuration).url(forKey: "videos/A b.mp4", expiresSeconds: 60, at: Date(timeIntervalSince1970: 0))
        #expect(url.hasPrefix("http://127.0.0.1:8333/clips/booth%201/videos/A%20b.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256&"))
        #expect(url.contains("&X-Amz-Credential=key%2F19700101%2Feu-west-1%2Fs3%2Faws4_request&X-Amz-Date=19700101T000000Z&X-Amz-Expires=60"))
        // A temporary credential's token is signed with the rest, before SignedHeaders in name order.
        #expect(url.contains("&X-Amz-Security-Token=to%2Fken&X-Amz-SignedHeaders=host&X-Amz-Signature="))
    }

    @Test func expiryIsBoundedBySigV4() {
        let configuration = S3Configuration(endpoint: "https://s3.amazonaws.com", region: "us-east-1", bucket: "b",
                                            credentials: S3Credentials(accessKeyID: "k", secretAccessKey: "s", source: "test"))
        for bad in [0, -1, 604_801] {
            #expect(throws: StorageError.self) { try S3Presigner(configuration).url(forKey: "k", expiresSeconds: bad) }
        }
        #expect((try? S3Presigner(configuration).url(forKey: "k", expiresSeconds: 604_800)) != nil)
    }
}
