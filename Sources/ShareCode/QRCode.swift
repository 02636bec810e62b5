internal import CQRencode
import Glibc
import SystemSupport

/// A QR code for a share link, made with libqrencode: error correction level M at least (a code
/// still reads with 15% of it damaged or covered), drawn with the 4-module quiet zone the standard
/// asks for, as SVG (sharp at any size on a screen).
package struct QRCode: Sendable, Equatable {
    /// Modules per side, without the quiet zone.
    package let size: Int
    /// Row by row, true for a dark module.
    package let modules: [Bool]
    package static let quietZone = 4

    /// The error correction levels libqrencode offers; L is below what a booth should print.
    package enum Correction: Sendable { case medium, quartile, high }

    /// Encodes `text` (as 8-bit bytes) at the smallest version that holds it. Text beyond ASCII
    /// (a Wi-Fi network's name) is preceded by an ECI header saying its bytes are UTF-8, as
    /// Android's own Wi-Fi codes are: a reader then need not guess (zbar took "Jörg" for Japanese).
    /// ASCII (every link) is coded without one, as readers have always read it.
    package init(_ text: String, correction: Correction = .medium) throws(QRCodeError) {
        let level: QRecLevel = switch correction {
        case .medium: QR_ECLEVEL_M
        case .quartile: QR_ECLEVEL_Q
        case .high: QR_ECLEVEL_H
        }
        let encoded = text.utf8.allSatisfy({ $0 < 0x80 }) ? text.withCString { QRcode_encodeString8bit($0, 0, level) }
            : Self.encodeUTF8(text, level)
        guard let encoded else {
            let code = errno
            throw QRCodeError(text: text, reason: code == ERANGE ? .tooLong : .failed(errno: code))
        }
        defer { QRcode_free(encoded) }
        let width = Int(encoded.pointee.width)
        size = width
        // Each byte's lowest bit: dark (1) or light (0); the other bits say what the module is for.
        modules = (0..<width * width).map { encoded.pointee.data[$0] & 1 == 1 }
    }

    /// `text`'s UTF-8 bytes behind ECI 26 (UTF-8); nil with errno set, as libqrencode's own calls.
    private static func encodeUTF8(_ text: String, _ level: QRecLevel) -> UnsafeMutablePointer<QRcode>? {
        guard let input = QRinput_new2(0, level) else { return nil }
        defer { QRinput_free(input) }
        let bytes = Array(text.utf8)
        guard QRinput_appendECIheader(input, 26) == 0,
              QRinput_append(input, QR_MODE_8, Int32(bytes.count), bytes) == 0 else { return nil }
        return QRcode_encodeInput(input)
    }

    /// The code as an SVG document: one path of dark squares on a white square with the quiet
    /// zone, `pixelsPerModule` a module.
    package func svg(pixelsPerModule: Int = 8) -> String {
        let side = size + 2 * Self.quietZone
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard modules[y * size + x] else { x += 1; continue }
                // A run of dark modules in a row is one rectangle.
                let start = x
                while x < size && modules[y * size + x] { x += 1 }
                path += "M\(start + Self.quietZone) \(y + Self.quietZone)h\(x - start)v1h-\(x - start)z"
            }
        }
        let pixels = side * pixelsPerModule
        return #"<svg xmlns="http://www.w3.org/2000/svg" width="\#(pixels)" height="\#(pixels)" viewBox="0 0 \#(side) \#(side)" shape-rendering="crispEdges">"#
            + ##"<rect width="\##(side)" height="\##(side)" fill="#fff"/><path fill="#000" d="\##(path)"/></svg>"##
    }
}

/// Text libqrencode could not encode.
package struct QRCodeError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Why libqrencode refused it.
    package enum Reason: Sendable, Equatable {
        /// More than the largest QR code holds (ERANGE).
        case tooLong
        /// Another failure (errno: ENOMEM...).
        case failed(errno: Int32)
    }

    package var text: String
    package var reason: Reason
    /// Without the text, which may be a secret (a Wi-Fi QR code holds the password).
    package var description: String {
        switch reason {
        case .tooLong: "cannot make a QR code of \(text.utf8.count) bytes: it is too long for a QR code"
        case .failed(let code): "cannot make a QR code of \(text.utf8.count) bytes: \(String(cString: strerror(code)))"
        }
    }
}
