import Settings

/// One change the operator page asks for, for one key (`PUT /api/admin/settings`'s `changes`):
///
///     "event.name": "Anna & Ben"                    a value (numbers and true/false as well)
///     "kiosk.countdown_seconds": null               back to the file's value or the default
///     "kiosk.prompts": {"text": "…\n…"}             a text, saved as a file the key then names
///     "shoot.overlay": {"upload": "ID"}             a frame uploaded before (POST /api/admin/frame)
///     "mail.credentials_file": {"user": "…", "password": "…"}   the mail server's login, saved as a file
package enum SettingChange: Sendable, Equatable, Decodable {
    case value(String)
    case reset
    case text(String)
    case frame(upload: String)
    case login(user: String, password: String)

    private enum Keys: String, CodingKey {
        case text, upload, user, password
    }

    package init(from decoder: any Decoder) throws {
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .reset
        } else if let text = try? single.decode(String.self) {
            self = .value(text)
        } else if let flag = try? single.decode(Bool.self) {
            self = .value(flag ? "true" : "false")
        } else if let number = try? single.decode(Double.self) {
            self = .value(Setting.Rule.format(number))
        } else {
            let object = try decoder.container(keyedBy: Keys.self)
            let fields = Set(object.allKeys.map(\.stringValue))
            if fields == ["text"] {
                self = .text(try object.decode(String.self, forKey: .text))
            } else if fields == ["upload"] {
                self = .frame(upload: try object.decode(String.self, forKey: .upload))
            } else if fields == ["user", "password"] {
                self = .login(user: try object.decode(String.self, forKey: .user), password: try object.decode(String.self, forKey: .password))
            } else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                    "a change is a value, null, {\"text\": ...}, {\"upload\": ID} or {\"user\": ..., \"password\": ...}"))
            }
        }
    }
}
