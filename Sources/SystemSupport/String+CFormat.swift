import Glibc

extension String {
    /// printf-style formatting of numbers through C's `vsnprintf` (`%.1f`, `%02X`, `%010ld`, ...),
    /// in the C locale, so a decimal point is always a point. Strings go in by interpolation: there
    /// is no `%@`.
    package init(cFormat format: String, _ arguments: any CVarArg...) {
        var capacity = 64
        while true {
            var buffer = [CChar](repeating: 0, count: capacity)
            let needed = withVaList(arguments) { vsnprintf(&buffer, capacity, format, $0) }
            if needed < 0 {
                self = format
                return
            }
            if Int(needed) < capacity {
                self = String(decoding: buffer.prefix(Int(needed)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
                return
            }
            capacity = Int(needed) + 1
        }
    }
}
