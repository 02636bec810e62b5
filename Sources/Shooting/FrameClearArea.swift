import SystemSupport

/// Where a branding frame leaves the live picture clear, for the booth's page to keep its words
/// and buttons there, never over the frame's text (issue 49): the frame's bands at each edge, as
/// shares of the picture's height (top, bottom) and width (left, right).
package struct FrameClearArea: Sendable, Hashable {
    package var top: Double
    package var bottom: Double
    package var left: Double
    package var right: Double

    package init(top: Double, bottom: Double, left: Double, right: Double) {
        (self.top, self.bottom, self.left, self.right) = (top, bottom, left, right)
    }

    /// "top bottom left right", four decimals each: the live stream's `X-Frame-Clear`.
    package var header: String {
        [top, bottom, left, right].map { String(cFormat: "%.4f", $0) }.joined(separator: " ")
    }
}
