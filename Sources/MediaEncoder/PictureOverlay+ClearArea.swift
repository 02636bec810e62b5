package import MediaValues

extension PictureOverlay {
    /// The frame's bands at each edge at `width`x`height`, as shares of the picture's height (top,
    /// bottom) and width (left, right): the clear area runs between them, where the booth's page
    /// keeps its words and buttons (issue 49: "Anna & Ben · 28.11.2026" sat under the record
    /// button). From the picture's middle out, the first
    /// row (column) where the frame shows across more than 1% of the middle three fifths of the
    /// frame's own width (height) is where its band begins. A thin side border or a logo in a
    /// corner does not make a band of the whole edge; text along an edge does.
    package func clearArea(width: Int, height: Int) throws(MediaError) -> (top: Double, bottom: Double, left: Double, right: Double) {
        let frame = try rendered(width: width, height: height, fullRange: true)
        let alpha = frame.alpha
        let shows: UInt8 = 24
        // The frame's own place in the picture, as `render` fits it (aspect kept, centred): its
        // middle three fifths are looked at, whatever bars the camera's picture has beside it.
        let scale = min(Double(width) / Double(self.width), Double(height) / Double(self.height))
        let fw = max(2, min(width, Int((Double(self.width) * scale).rounded()) & ~1))
        let fh = max(2, min(height, Int((Double(self.height) * scale).rounded()) & ~1))
        let x0 = ((width - fw) / 2) & ~1, y0 = ((height - fh) / 2) & ~1
        func rowShows(_ row: Int) -> Bool {
            let (from, to) = (x0 + fw / 5, x0 + fw - fw / 5)
            var count = 0
            for col in from..<to where alpha[row * width + col] > shows { count += 1 }
            return count * 100 > (to - from)
        }
        func columnShows(_ col: Int) -> Bool {
            let (from, to) = (y0 + fh / 5, y0 + fh - fh / 5)
            var count = 0
            for row in from..<to where alpha[row * width + col] > shows { count += 1 }
            return count * 100 > (to - from)
        }
        let (midRow, midColumn) = (height / 2, width / 2)
        let top = (0..<midRow).reversed().first(where: rowShows).map { $0 + 1 } ?? 0
        let bottom = (midRow..<height).first(where: rowShows) ?? height
        let left = (0..<midColumn).reversed().first(where: columnShows).map { $0 + 1 } ?? 0
        let right = (midColumn..<width).first(where: columnShows) ?? width
        return (Double(top) / Double(height), Double(height - bottom) / Double(height),
                Double(left) / Double(width), Double(width - right) / Double(width))
    }
}
