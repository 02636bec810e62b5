extension StringProtocol {
    /// The text without the leading and trailing characters that `isTrimmed` accepts: white space
    /// and line breaks unless told otherwise.
    package func trimmed(_ isTrimmed: (Character) -> Bool = \.isWhitespace) -> String {
        guard let first = firstIndex(where: { !isTrimmed($0) }),
              let last = lastIndex(where: { !isTrimmed($0) }) else { return "" }
        return String(self[first...last])
    }
}
