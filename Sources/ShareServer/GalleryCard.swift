package import FoundationEssentials
import Glibc
package import Failures
import Library
package import Publishing
package import ShareCode
import KioskWords
import SystemSupport

/// The host's printable card: the event's name, a QR code of the gallery's link, the link itself
/// and until when it opens, on one A5 page, as a PDF any printer takes. Written by hand (a PDF
/// this simple needs no library): the standard fonts every reader has (Helvetica, Courier, in
/// their WinAnsi encoding: a character they cannot show becomes "?"), the code as filled squares.
package enum GalleryCard {
    /// A5, in points.
    static let (width, height) = (420.0, 595.0)
    static let margin = 36.0

    /// The card for `link` (the gallery of `event`, open until `expires`), in `language`.
    package static func pdf(event: String, link: String, expires: Date?, language: String) throws(QRCodeError) -> [UInt8] {
        let code = try QRCode(link, correction: .quartile)
        var content = ""
        // The event's name, wrapped, at the top; then what the code is for.
        var y = height - margin - 24
        for line in wrapped(event, size: 24, width: width - 2 * margin).prefix(3) {
            content += text(line, font: "F1", size: 24, x: margin, y: y)
            y -= 30
        }
        for line in wrapped(GuestStrings.text(.galleryCardHint, language), size: 13, width: width - 2 * margin) {
            content += text(line, font: "F2", size: 13, x: margin, y: y)
            y -= 17
        }
        // The code, as large as the page allows below the words, with its quiet zone (white page).
        let side = Double(code.size + 2 * QRCode.quietZone)
        let available = min(width - 2 * margin, y - 110)
        let module = (available / side).rounded(.down)
        let origin = ((width - module * side) / 2, y - 10 - module * side)
        content += "0 g\n"
        for row in 0..<code.size {
            var column = 0
            while column < code.size {
                guard code.modules[row * code.size + column] else { column += 1; continue }
                let start = column
                while column < code.size && code.modules[row * code.size + column] { column += 1 }
                let x = origin.0 + Double(start + QRCode.quietZone) * module
                let top = origin.1 + Double(code.size + QRCode.quietZone - row) * module
                content += "\(number(x)) \(number(top - module)) \(number(Double(column - start) * module)) \(number(module)) re\n"
            }
        }
        content += "f\n"
        // The link in full (a phone without a camera types it), and until when it opens.
        y = origin.1 - 14
        for line in wrapped(link, size: 10, width: width - 2 * margin, monospaced: true) {
            content += text(line, font: "F3", size: 10, x: margin, y: y)
            y -= 13
        }
        if let expires {
            y -= 6
            let until = GuestStrings.text(.galleryUntil, language).replacing("{n}", with: String(RFC3339.string(expires).prefix(10)))
            content += text(until, font: "F2", size: 11, x: margin, y: y)
        }
        return document(content: content)
    }

    /// Writes a card at `path`, a new file (an existing one is never replaced).
    package static func write(_ bytes: [UInt8], to path: String) throws(RecorderError) {
        let fd: Int32
        do throws(Descriptors.Errno) { fd = try Posix.open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o644) } catch {
            throw .gallery(.cannotWriteCard(path: path, errno: error.code))
        }
        do throws(Descriptors.Errno) {
            try Posix.writeAll(fd, bytes)
            try Posix.fsync(fd)
        } catch {
            Posix.closeAfterUse(fd)
            // (a card cut short is no card: the failure is what is reported)
            try? Posix.unlink(path)
            throw .gallery(.cannotWriteCard(path: path, errno: error.code))
        }
        // (synced: nothing close could report concerns the card)
        Posix.closeAfterUse(fd)
    }

    /// One line of text at (x, y).
    private static func text(_ line: String, font: String, size: Int, x: Double, y: Double) -> String {
        "BT /\(font) \(size) Tf \(number(x)) \(number(y)) Td (\(escaped(line))) Tj ET\n"
    }

    /// `text` in lines that fit `width` at `size`: Helvetica's letters are about half an em wide on
    /// average (0.56 keeps a line of capitals inside), Courier's 0.6. Long words are cut.
    static func wrapped(_ text: String, size: Double, width: Double, monospaced: Bool = false) -> [String] {
        let perLine = max(8, Int(width / (size * (monospaced ? 0.6 : 0.56))))
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            var word = String(word)
            while word.count > perLine {
                if !line.isEmpty { lines.append(line); line = "" }
                lines.append(String(word.prefix(perLine)))
                word = String(word.dropFirst(perLine))
            }
            if line.isEmpty { line = word } else if line.count + 1 + word.count <= perLine { line += " " + word } else { lines.append(line); line = word }
        }
        if !line.isEmpty { lines.append(line) }
        return lines
    }

    /// A PDF string's bytes: WinAnsi (Latin-1's letters), "?" for what it lacks, ( ) \ escaped.
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x28, 0x29, 0x5C: out += "\\" + String(scalar)
            case 0x20...0x7E: out.unicodeScalars.append(scalar)
            case 0xA0...0xFF: out += "\\" + String(scalar.value, radix: 8)
            case 0x20AC: out += "\\200"
            case 0x2013: out += "\\226"
            case 0x2014: out += "\\227"
            case 0x2018: out += "\\221"
            case 0x2019: out += "\\222"
            case 0x201C: out += "\\223"
            case 0x201D: out += "\\224"
            case 0x2026: out += "\\205"
            default: out += "?"
            }
        }
        return out
    }

    private static func number(_ value: Double) -> String { String(cFormat: "%.2f", value) }

    /// The whole file around one page's `content`.
    private static func document(content: String) -> [UInt8] {
        let objects = [
            "<< /Type /Catalog /Pages 2 0 R >>",
            "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
            "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 \(Int(width)) \(Int(height))] /Resources << /Font << /F1 4 0 R /F2 5 0 R /F3 6 0 R >> >> /Contents 7 0 R >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
            "<< /Type /Font /Subtype /Type1 /BaseFont /Courier /Encoding /WinAnsiEncoding >>",
            "<< /Length \(content.utf8.count) >>\nstream\n\(content)endstream",
        ]
        var bytes = Array("%PDF-1.4\n%\u{E2}\u{E3}\u{CF}\u{D3}\n".utf8)
        var offsets: [Int] = []
        for (index, object) in objects.enumerated() {
            offsets.append(bytes.count)
            bytes += Array("\(index + 1) 0 obj\n\(object)\nendobj\n".utf8)
        }
        let xref = bytes.count
        var table = "xref\n0 \(objects.count + 1)\n0000000000 65535 f \n"
        for offset in offsets {
            let digits = String(offset)
            table += String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
        }
        table += "trailer\n<< /Size \(objects.count + 1) /Root 1 0 R >>\nstartxref\n\(xref)\n%%EOF\n"
        return bytes + Array(table.utf8)
    }
}

/// Where a gallery's link points: `/g/<token>` on the share links' base (the origin of
/// `share.base_url`, the public name the share servers answer for), or, on a booth without one,
/// the booth's own page address; nil when there is neither.
package enum GalleryLink {
    package static func url(token: String, share: ShareLinks) -> String? {
        share.galleryOrigin.map { $0 + "/g/" + token }
    }
}
