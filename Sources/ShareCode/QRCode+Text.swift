extension QRCode {
    /// The code drawn in a terminal: two rows of modules a line, with Unicode's half blocks (dark
    /// modules as the terminal's background, so a dark terminal shows it as light-on-dark as well as
    /// a phone's camera reads it), its quiet zone included.
    package func text() -> String {
        let side = size + 2 * Self.quietZone
        func dark(_ x: Int, _ y: Int) -> Bool {
            let (column, row) = (x - Self.quietZone, y - Self.quietZone)
            return (0..<size).contains(column) && (0..<size).contains(row) && modules[row * size + column]
        }
        var lines: [String] = []
        for y in stride(from: 0, to: side, by: 2) {
            var line = ""
            for x in 0..<side {
                // Light modules are drawn: a full block for both, a half block for one.
                switch (!dark(x, y), y + 1 < side && !dark(x, y + 1)) {
                case (true, true): line += "█"
                case (true, false): line += "▀"
                case (false, true): line += "▄"
                case (false, false): line += " "
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }
}
