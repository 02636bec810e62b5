import VideoCapture
import MediaValues

/// A picture's size in pixels, as an edge gives it (`--size 1280x720`, a reel's size).
package struct PictureSize: Sendable, Hashable, CustomStringConvertible {
    package var width: Int
    package var height: Int

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// `WIDTHxHEIGHT`; nil for anything else.
    package init?(parsing text: String) {
        guard let size = FrameSize(parsing: text) else { return nil }
        self.init(width: size.width, height: size.height)
    }

    package var description: String { "\(width)x\(height)" }
}
