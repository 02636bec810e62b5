import SystemSupport

/// One `Range: bytes=...` header against a file of `size` bytes; nil when it cannot be satisfied.
package enum ByteRange {
    package static func parse(_ header: String, size: Int) -> ClosedRange<Int>? {
        guard header.hasPrefix("bytes="), size > 0 else { return nil }
        let spec = header.dropFirst(6)
        // One range only; a browser playing video asks for one.
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let first = spec[..<dash].trimmed()
        let last = spec[spec.index(after: dash)...].trimmed()
        if first.isEmpty {
            guard let suffix = Int(last), suffix > 0 else { return nil }
            return max(size - suffix, 0)...(size - 1)
        }
        guard let start = Int(first), start >= 0, start < size else { return nil }
        if last.isEmpty { return start...(size - 1) }
        guard let end = Int(last), end >= start else { return nil }
        return start...min(end, size - 1)
    }
}
