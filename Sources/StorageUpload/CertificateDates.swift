internal import COpenSSL
package import FoundationEssentials

/// When a TLS certificate (PEM, as nginx reads it) starts and stops being valid, and whom it names,
/// read with libcrypto: `recorder doctor` warns of one that expires before the event.
package struct CertificateDates: Sendable, Equatable {
    package var notBefore: Date
    package var notAfter: Date
    /// The subject as one line: "/CN=booth.example.com".
    package var subject: String

    /// The dates of the first certificate in `pem` (a chain's first is the server's own); nil when
    /// the text holds no certificate libcrypto can read.
    package init?(pem: [UInt8]) {
        guard let certificate = pem.withUnsafeBytes({ copenssl_read_pem_certificate($0.baseAddress, Int32($0.count)) }) else {
            return nil
        }
        defer { X509_free(certificate) }
        let start = copenssl_certificate_time(certificate, 0), end = copenssl_certificate_time(certificate, 1)
        guard end != 0 else { return nil }
        var text = [CChar](repeating: 0, count: 512)
        text.withUnsafeMutableBufferPointer { copenssl_certificate_subject(certificate, $0.baseAddress, Int32($0.count)) }
        notBefore = Date(timeIntervalSince1970: Double(start))
        notAfter = Date(timeIntervalSince1970: Double(end))
        subject = String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    package init(notBefore: Date, notAfter: Date, subject: String) {
        self.notBefore = notBefore
        self.notAfter = notAfter
        self.subject = subject
    }
}
