import MailValues

/// How far one SMTP conversation got, read from what libcurl's debug callback shows: each command
/// as it is sent (`CURLINFO_HEADER_OUT`) and each reply line as it arrives (`CURLINFO_HEADER_IN`).
///
/// libcurl's own result cannot say it: `CURLINFO_RESPONSE_CODE` is the last reply's code, so a 250
/// there may answer MAIL FROM as well as the message, and one error code (`CURLE_SEND_ERROR`) covers
/// a refused RCPT and a connection reset mid-message. The trace keeps the step each reply answered.
/// Nothing of a command but its verb is kept (AUTH's lines carry the credentials).
final class SMTPTrace {
    /// The step under way: the last command sent (`.message` once DATA was answered 354).
    private(set) var step: SMTPStep = .greeting
    /// The last complete reply before QUIT, with the step it answered.
    private(set) var lastReply: SMTPReply?
    /// Once QUIT is sent (libcurl says goodbye after a failure too), replies no longer count.
    private var quitting = false
    private var pending: [UInt8] = []
    private var replyText: [String] = []
    /// Told of the server's 2xx to the message the moment its last line is read, before libcurl
    /// says QUIT and waits for the goodbye (a server may take its time over that, or a process be
    /// killed meanwhile): the caller's record that the message was taken comes first.
    var onAcceptance: ((SMTPReply) -> Void)?
    /// The message's recipient: masked in every spelling a reply may echo it in.
    private let recipients: [MailAddress]

    init(recipient: MailAddress? = nil) {
        recipients = recipient.map { [$0] } ?? []
    }

    /// A command line libcurl sent.
    func sent(_ bytes: UnsafeRawBufferPointer) {
        guard !quitting else { return }
        let verb = String(decoding: bytes.prefix { $0 != 0x20 && $0 != 0x0d && $0 != 0x0a }, as: UTF8.self).uppercased()
        // AUTH's continuation lines (base64, no space) are not commands: until MAIL FROM (or QUIT)
        // every line sent belongs to the authentication.
        if step == .authentication && verb != "MAIL" && verb != "QUIT" { return }
        switch verb {
        case "EHLO", "HELO": step = .hello
        case "STARTTLS": step = .startTLS
        case "AUTH": step = .authentication
        case "MAIL": step = .mailFrom
        case "RCPT": step = .recipient
        case "DATA": step = .data
        case "QUIT": quitting = true
        default: break
        }
    }

    /// Bytes of the server's replies (libcurl hands them over a line at a time; any split works).
    func received(_ bytes: UnsafeRawBufferPointer) {
        guard !quitting else { return }
        for byte in bytes {
            if byte == 0x0a {
                line(pending)
                pending.removeAll(keepingCapacity: true)
            } else if pending.count < 4096 {
                pending.append(byte)
            }
        }
    }

    /// One reply line: `DDD-text` continues a reply, `DDD text` (or `DDD`) ends it.
    private func line(_ raw: [UInt8]) {
        var bytes = raw[...]
        if bytes.last == 0x0d { bytes = bytes.dropLast() }
        guard bytes.count >= 3, bytes.prefix(3).allSatisfy({ (0x30...0x39).contains($0) }),
              let code = Int(String(decoding: bytes.prefix(3), as: UTF8.self)) else { return }
        let separator = bytes.dropFirst(3).first
        // Printable text only: it is the server's, and it ends up in front of people and in records.
        let text = String(decoding: bytes.dropFirst(4), as: UTF8.self).unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7f }
        replyText.append(String(String.UnicodeScalarView(text)))
        guard separator != UInt8(ascii: "-") else { return }
        // Masked before it is cut: an address cut in two would be masked by neither half.
        let joined = String(SMTPReply.maskingAddresses(replyText.joined(separator: "\n"), addresses: recipients).prefix(SMTPReply.maximumText))
        replyText.removeAll()
        // The message's reply comes once every line of it, and its final dot, went out.
        if step == .message { step = .endOfMessage }
        lastReply = SMTPReply(code: code, text: joined, step: step)
        if step == .data && code == 354 { step = .message }
        if let accepted = acceptance, let onAcceptance {
            // (once: the conversation ends with it, and QUIT's reply is not counted)
            self.onAcceptance = nil
            onAcceptance(accepted)
        }
    }

    /// The 2xx the server gave the message itself: the one proof that it took the message.
    var acceptance: SMTPReply? {
        guard let lastReply, lastReply.step == .endOfMessage, lastReply.code / 100 == 2 else { return nil }
        return lastReply
    }

    /// The step under way when the conversation stopped: `.endOfMessage` once the whole message was
    /// handed to libcurl (`messageFinished`), although its reply has not come.
    func stepReached(messageFinished: Bool) -> SMTPStep {
        step == .message && messageFinished ? .endOfMessage : step
    }
}
