import Foundation
import StorageUpload
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A real SMTP server on loopback (Tests/mail/smtp-server.py: aiosmtpd from Debian, with a
/// certificate openssl makes for it), its faults, and what it received, read back with Python's
/// MIME parser (Tests/mail/read-mail.py), not with recorder's code.
final class SMTPFixture {
    static let user = "booth"
    static let password = "s3cret: with spaces = and more"

    let dir: String
    let port: Int
    private let server: Process

    /// `tls`: "starttls", "implicit" or "none". `auth`: require AUTH with `user` and `password`.
    /// Fails the test (never skips) when the server cannot start.
    init(tls: String = "starttls", auth: Bool = true) throws {
        dir = try Tools.tempDirectory()
        // Debian's python, which has Debian's python3-aiosmtpd (scripts/setup.sh installs it).
        (server, port) = try S3Fixture.startHelper("/usr/bin/python3", ["\(S3Fixture.repository)/Tests/mail/smtp-server.py", dir, "--tls", tls]
                                                       + (auth ? ["--auth", "\(Self.user):\(Self.password)"] : []),
                                                   log: "\(dir)/server.log", ready: "\(dir)/ready", name: "the SMTP server",
                                                   advice: " (scripts/setup.sh test installs python3-aiosmtpd)")
    }

    deinit {
        S3Fixture.stop(server)
        try? FileManager.default.removeItem(atPath: dir)
    }

    /// The server's certificate, which a client trusts as its CA file (none without TLS).
    var caFile: String? { FileManager.default.fileExists(atPath: "\(dir)/cert.pem") ? "\(dir)/cert.pem" : nil }

    /// Settings that reach this server: STARTTLS (or smtps://) with its certificate, AUTH with the
    /// credentials file, short timeouts.
    func settings(implicitTLS: Bool = false, insecure: Bool = false, credentials: (user: String, password: String)? = (user, password),
                  stallSeconds: Int = 10) throws -> SMTPSettings {
        var file: String?
        if let credentials {
            file = "\(dir)/credentials"
            try "# the booth's mail account\nuser = \(credentials.user)\npassword = \(credentials.password)\n".write(toFile: file!, atomically: true, encoding: .utf8)
            chmod(file!, 0o600)
        }
        return SMTPSettings(url: "\(implicitTLS ? "smtps" : "smtp")://127.0.0.1:\(port)", insecure: insecure, credentialsFile: file, caFile: caFile,
                            transfer: TransferSettings(connectTimeoutSeconds: 10, stallTimeoutSeconds: stallSeconds))
    }

    /// Sets the server's fault (see smtp-server.py), or clears it with nil.
    func fault(_ fault: [String: Any]?) throws {
        let data = try JSONSerialization.data(withJSONObject: fault ?? ["mode": "normal"])
        try data.write(to: URL(fileURLWithPath: "\(dir)/fault.json.new"))
        rename("\(dir)/fault.json.new", "\(dir)/fault.json")
    }

    /// Makes the server stop or start listening, and waits until it has (it looks every 50 ms).
    func down(_ down: Bool) throws {
        let before = events().filter { $0["event"] as? String == (down ? "down" : "listening") }.count
        try fault(down ? ["mode": "down"] : nil)
        for _ in 0..<600 where events().filter({ $0["event"] as? String == (down ? "down" : "listening") }).count == before { usleep(50_000) }
        try #require(events().filter { $0["event"] as? String == (down ? "down" : "listening") }.count > before, "the SMTP server did not go \(down ? "down" : "up")")
    }

    /// The messages it kept, in order: the file and its envelope.
    func received() throws -> [(path: String, envelope: [String: Any])] {
        let names = try FileManager.default.contentsOfDirectory(atPath: "\(dir)/mail").filter { $0.hasSuffix(".eml") }.sorted()
        return try names.map { name in
            let base = "\(dir)/mail/\(name.dropLast(4))"
            let envelope = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: "\(base).json"))) as? [String: Any] ?? [:]
            return ("\(base).eml", envelope)
        }
    }

    /// What happened, one event a line (connections, STARTTLS, AUTH, transactions, faults).
    func events() -> [[String: Any]] {
        let text = (try? String(contentsOfFile: "\(dir)/events.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func count(_ name: String) -> Int { events().filter { $0["event"] as? String == name }.count }

    /// A received message as Python's MIME parser reads it (see read-mail.py).
    static func parse(_ path: String) throws -> [String: Any] {
        let result = try Tools.run("python3", ["\(S3Fixture.repository)/Tests/mail/read-mail.py", path])
        try #require(result.status == 0, "read-mail.py failed: \(result.stderr)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    }
}
