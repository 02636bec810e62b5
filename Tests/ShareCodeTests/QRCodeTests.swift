import Foundation
import ShareCode
import Testing

/// QR codes read back by zbarimg (Debian's zbar-tools), not by the code that made them.
struct QRCodeTests {
    /// The code as a PGM picture, `scale` pixels a module, with its quiet zone.
    private func pgm(_ code: QRCode, scale: Int = 6) -> Data {
        let side = (code.size + 2 * QRCode.quietZone) * scale
        var pixels = [UInt8](repeating: 255, count: side * side)
        for y in 0..<code.size {
            for x in 0..<code.size where code.modules[y * code.size + x] {
                for dy in 0..<scale {
                    for dx in 0..<scale {
                        pixels[((y + QRCode.quietZone) * scale + dy) * side + (x + QRCode.quietZone) * scale + dx] = 0
                    }
                }
            }
        }
        return Data("P5\n\(side) \(side)\n255\n".utf8) + Data(pixels)
    }

    private func zbarimg(_ data: Data) throws -> String {
        let file = NSTemporaryDirectory() + "recorder-qr-\(UUID().uuidString).pgm"
        try data.write(to: URL(fileURLWithPath: file))
        defer { try? FileManager.default.removeItem(atPath: file) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/zbarimg")
        process.arguments = ["--raw", "-q", "-Sdisable", "-Sqrcode.enable", file]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text.trimmingCharacters(in: .newlines)
    }

    @Test func aPresignedLinkReadsBackExactly() throws {
        let link = "http://192.168.1.20:8333/clips/booth-1/videos/Ab3dE5fG7h.mp4?X-Amz-Algorithm=AWS4-HMAC-SHA256"
            + "&X-Amz-Credential=AKIA%2F20261124%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20261124T120000Z&X-Amz-Expires=604800"
            + "&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404"
        let code = try QRCode(link)
        #expect(try zbarimg(pgm(code)) == link)
    }

    @Test func textBeyondASCIISaysItIsUTF8AndReadsBackExactly() throws {
        // A Wi-Fi network's name at a German wedding: without the code saying its bytes are UTF-8
        // (an ECI header, as Android's own "share Wi-Fi" codes carry), a reader guesses, and zbar
        // guessed "Jörg" as Japanese.
        for text in ["WIFI:T:nopass;S:Hochzeit Jörg & Anna;;", "WIFI:T:WPA;S:Café 🎉 Ümlaut;P:password;;", "https://example.com/ß"] {
            #expect(try zbarimg(pgm(QRCode(text))) == text)
        }
        // Plain ASCII (every share link) is coded as before, with no header: the same modules.
        let link = "https://booth.example.com/s/abcdefghijklmnopqrstuv"
        #expect(try zbarimg(pgm(QRCode(link))) == link)
    }

    @Test func svgHasTheQuietZoneAndOnlyDarkModulesDrawn() throws {
        let code = try QRCode("https://example.com/s/abc")
        let svg = code.svg(pixelsPerModule: 10)
        let side = code.size + 8
        #expect(svg.contains(#"viewBox="0 0 \#(side) \#(side)""#) && svg.contains(#"width="\#(side * 10)""#))
        // Nothing is drawn in the quiet zone: every rectangle starts 4 modules in.
        let starts = svg.split(separator: "M").dropFirst().map { $0.split(separator: "h")[0].split(separator: " ").map { Int($0) ?? -1 } }
        #expect(!starts.isEmpty && starts.allSatisfy { $0[0] >= 4 && $0[1] >= 4 && $0[0] < side - 4 && $0[1] < side - 4 })
        // The three finder patterns' corners are dark.
        let n = code.size
        #expect(code.modules[0] && code.modules[n - 1] && code.modules[(n - 1) * n])
    }

    @Test func textTooLongForAnyQRCodeIsAClearError() {
        #expect { try QRCode(String(repeating: "x", count: 5000)) } throws: { error in
            (error as? QRCodeError)?.reason == .tooLong
        }
    }
}
