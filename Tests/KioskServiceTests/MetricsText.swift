/// The samples of a `/metrics` text (Prometheus' text format), by the series as written
/// (`recorder_shots_total{result="ok"}`): tests judge values, not lines.
func metricValues(_ text: String) -> [String: Double] {
    var values: [String: Double] = [:]
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        guard let space = line.lastIndex(of: " "), let value = Double(line[line.index(after: space)...]) else { continue }
        values[String(line[..<space])] = value
    }
    return values
}
