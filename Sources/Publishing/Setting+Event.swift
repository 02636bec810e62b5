package import Settings

extension Setting {
    /// The event itself (`event.*`): what the booth is for, set on the operator page or in the file.
    package static let event: [Setting] = [
        Setting("event.name", default: "",
                "the event's name, e.g. Anna & Ben's wedding: {event} in the guests' mail (mail.subject, mail.template); empty: mail.event's, else none"),
    ]
}
