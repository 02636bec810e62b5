/// A field of a guest's mail template (`MailTemplate.Field`): `{link}`, `{caption}`, `{event}`, `{expires}`.
package enum MailTemplateField: String, Sendable, CaseIterable, Encodable {
    case link, caption, event, expires
}

/// Why a mail template text (`MailTemplate.Problem`) cannot be used. Cases: the edge words them.
package enum MailTemplateProblem: Error, Sendable, Equatable, Encodable {
    /// `{name}` with a name that is none of the fields (a typo would go out to every guest).
    case unknownField(String)
    /// A field the template must have is missing (a body without `{link}` has no point).
    case missingField(MailTemplateField)
    /// A control character other than a line break or a tab (the scalar's value).
    case controlCharacter(UInt32)
    /// Longer than `maximumLength` characters.
    case tooLong(Int)

    /// The most characters a template has (`MailTemplate.maximumLength`).
    package static let maximumLength = 20_000
}
