/// The parts of a slash-separated path, as `NSString`'s path methods gave them, for code that
/// builds without full Foundation.
package enum FilePaths {
    /// Everything before the last component: "/a/b/c.mp4" -> "/a/b", "/c" -> "/", "c" -> "".
    package static func directory(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return "" }
        if slash == trimmed.startIndex { return "/" }
        return withoutTrailingSlashes(String(trimmed[..<slash]))
    }

    /// The last component: "/a/b/c.mp4" -> "c.mp4", "/a/b/" -> "b", "/" -> "/".
    package static func name(of path: String) -> String {
        let trimmed = withoutTrailingSlashes(path)
        guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
        if trimmed == "/" { return "/" }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// `component` under `directory`, with exactly one slash between them.
    package static func join(_ directory: String, _ component: String) -> String {
        if directory.isEmpty { return component }
        return directory.hasSuffix("/") ? directory + component : directory + "/" + component
    }

    private static func withoutTrailingSlashes(_ path: String) -> String {
        var result = Substring(path)
        while result.count > 1 && result.hasSuffix("/") { result = result.dropLast() }
        return String(result)
    }
}
