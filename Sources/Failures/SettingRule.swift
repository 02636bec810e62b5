/// What a configuration value must look like (`Setting.Rule`): the data of a bad value's
/// problem, worded by the edges; Settings checks a value against it.
package enum SettingRule: Sendable, Equatable, Encodable {
    /// Any text.
    case text
    /// A number in the range; `integer`: a whole one.
    case number(ClosedRange<Double>, integer: Bool = false)
    /// More than 0 and at most the limit.
    case positive(Double)
    case boolean
    case choice([String])
    /// One or more of the names, separated by commas.
    case choices([String])
    /// `off`, or a number in the range.
    case offOrNumber(ClosedRange<Double>)
    /// HOST:PORT.
    case listen
    /// A secret token (at least 128 bits of guessing), or empty for none.
    case token
    case frameSize
    case pixelFormat
}
