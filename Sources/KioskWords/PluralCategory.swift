/// The plural forms a language's words take for a count (CLDR's plural categories), as the guest
/// page's `Intl.PluralRules` names them: "1 second" is `one`, "2 seconds" and "0 seconds" `other`.
package enum PluralCategory: String, CaseIterable, Sendable {
    case zero, one, two, few, many, other

    /// The forms `language` has for whole numbers (CLDR's; en and de, the guest's languages, have
    /// two: a new language brings its own here and in `of`).
    package static func forms(_ language: String) -> [PluralCategory] {
        [.one, .other]
    }

    /// The form whole number `n` takes in `language` (CLDR's rule for en and de: `one` for 1 alone).
    package static func of(_ n: Int, _ language: String) -> PluralCategory {
        n == 1 ? .one : .other
    }
}
