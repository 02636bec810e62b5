import Failures
import MailValues
import Settings

extension CLIMailFailure {
    /// The settings' problem, with where each `mail.*` key's value came from, as the words need it.
    static func settings(_ problem: MailSettingsProblem, _ configuration: RecorderConfiguration) -> CLIMailFailure {
        let keys = configuration.settings.keys.filter { $0.hasPrefix("mail.") }
        return .settings(problem, origins: Dictionary(uniqueKeysWithValues: keys.map { ($0, configuration.origin($0)) }))
    }
}
