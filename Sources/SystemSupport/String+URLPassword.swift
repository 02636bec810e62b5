extension String {
    /// This URL with the password of `scheme://user:password@host` as `********` (the user kept):
    /// a setting's value or a refusal shown to people and kept in records never shows it. Text
    /// that is no such URL comes back as it is.
    package var withoutURLPassword: String {
        guard let scheme = firstRange(of: "://") else { return self }
        let rest = self[scheme.upperBound...]
        // (the authority ends at the path, the query, the fragment, or text that no URL holds)
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" && !$0.isWhitespace }
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else { return self }
        return String(self[..<colon]) + ":********" + String(self[at...])
    }
}
