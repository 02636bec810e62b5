@testable import StorageUpload
import Testing

/// Which answers a `DirectStream` reads itself: the range's bytes with a length and no transfer
/// coding. Every other answer (nil here) goes to libcurl whole, which reads them all.
@Suite struct DirectStreamTests {
    private func head(_ status: String, _ fields: [String]) -> String {
        (["HTTP/1.1 \(status)"] + fields).joined(separator: "\r\n")
    }

    @Test func aPartialAnswerFromTheRangesFirstByteIsReadForItsLength() {
        let range: ClosedRange<Int64> = 100...1_099
        #expect(DirectStream.bodyLength(head("206 Partial Content", ["Content-Length: 1000", "Content-Range: bytes 100-1099/5000"]), range: range) == 1000)
        // (an object that ends inside the range: its bytes, then the end)
        #expect(DirectStream.bodyLength(head("206 Partial Content", ["content-range:bytes 100-599/600", "CONTENT-LENGTH:  500 "]), range: range) == 500)
        // The whole object for a range from 0: the range's part of it.
        #expect(DirectStream.bodyLength(head("200 OK", ["Content-Length: 5000"]), range: 0...999) == 1000)
        #expect(DirectStream.bodyLength(head("200 OK", ["Content-Length: 600"]), range: 0...999) == 600)
    }

    @Test func everyOtherAnswerIsLeftToLibcurl() {
        let range: ClosedRange<Int64> = 100...1_099
        let others = [
            head("404 Not Found", ["Content-Length: 120"]),
            head("416 Range Not Satisfiable", ["Content-Length: 0"]),
            head("503 Slow Down", ["Content-Length: 300"]),
            // the whole object for a range that starts later: its first bytes are to be dropped
            head("200 OK", ["Content-Length: 5000"]),
            head("206 Partial Content", ["Content-Length: 1000", "Content-Range: bytes 0-999/5000"]),
            head("206 Partial Content", ["Content-Length: 999", "Content-Range: bytes 100-1099/5000"]),
            head("206 Partial Content", ["Content-Length: 1001", "Content-Range: bytes 100-1100/5000"]),
            head("206 Partial Content", ["Content-Length: 1000"]),
            head("206 Partial Content", ["Transfer-Encoding: chunked", "Content-Range: bytes 100-1099/5000"]),
            head("206 Partial Content", ["Content-Length: 1000", "Content-Length: 1000", "Content-Range: bytes 100-1099/5000"]),
            head("206 Partial Content", ["Content-Length: -5", "Content-Range: bytes 100-1099/5000"]),
            head("206 Partial Content", ["Content-Length: 1000", "a line without a colon", "Content-Range: bytes 100-1099/5000"]),
            "HTTP/2 206\r\nContent-Length: 1000\r\nContent-Range: bytes 100-1099/5000",
            "",
        ]
        for other in others {
            #expect(DirectStream.bodyLength(other, range: range) == nil, "\(other)")
        }
    }
}
