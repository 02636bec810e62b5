/// Why a message was not sent, as cases with their data; the edge that shows one words it.
///
/// A message counts as sent once the server has answered 2xx to the message itself (the reply to
/// its final dot), and only then: that reply is `SMTPSender.send`'s result, and no case here
/// follows it. Every case here means the server did not confirm the message, so sending it again
/// is allowed. Only `connectionLost(during: .endOfMessage, ...)` (and `cancelled` there) leaves a
/// server that may have it all the same: the whole message went out and the reply never came
/// (RFC 5321 4.1.1.4's note, RFC 1047), so a resend may arrive twice, with the same Message-ID. A
/// cut during `.message` is before the final dot, and a server keeps no message without it.
package enum SMTPFailure: Error, Sendable, Equatable, Codable {
    /// The settings cannot work; nothing was sent.
    case settings(SMTPSettingsProblem)
    /// The server's name did not resolve; nothing was sent.
    case hostNotFound(host: String)
    /// No TCP connection to the server (errno, when the system gave one: ECONNREFUSED when nothing
    /// listens there); nothing was sent.
    case cannotConnect(host: String, port: Int, errno: Int32)
    /// STARTTLS is required (`mail.insecure` is off) and the server does not offer it; nothing
    /// was sent.
    case startTLSNotOffered
    /// The TLS handshake failed or the server's certificate was not trusted (libcurl's code and
    /// its own detail); nothing was sent.
    case tlsFailed(curlCode: Int, detail: String)
    /// Credentials are set and the server offers no AUTH mechanism libcurl can use.
    case noUsableAuthentication
    /// The server answered 4xx (at `reply.step`): it did not take the message now.
    case temporaryRefusal(SMTPReply)
    /// The server answered 5xx (at `reply.step`): it will not take this message as it is (a
    /// recipient it does not know, credentials it refused at `.authentication`, a policy).
    case permanentRefusal(SMTPReply)
    /// The connection broke, or the server stopped answering for longer than the stall timeout
    /// (libcurl's code tells which), during `during`, before the server's reply to the message.
    case connectionLost(during: SMTPStep, curlCode: Int)
    /// `shouldStop` said stop, during `during`; the message was not confirmed.
    case cancelled(during: SMTPStep)
    /// The message's file could not be read (errno).
    case unreadableMessage(errno: Int32)
    /// Another libcurl failure (its code and detail).
    case libcurl(code: Int, detail: String)

    /// True when the same message may be sent again later and may then get through: the network,
    /// a 4xx, a connection cut before the server's reply to the message. False when trying again
    /// as things stand cannot help (settings, TLS, a 5xx): keep the message and show why.
    package var mayRetry: Bool {
        switch self {
        case .hostNotFound, .cannotConnect, .temporaryRefusal, .connectionLost, .cancelled, .libcurl: true
        case .settings, .startTLSNotOffered, .tlsFailed, .noUsableAuthentication, .permanentRefusal, .unreadableMessage: false
        }
    }

    /// The failure with the server's and libcurl's words masked for `addresses` (the message's
    /// recipients: what a reply echoes), as `SMTPReply.maskingAddresses` does: a record kept from
    /// before a spelling was masked shows none either.
    package func masking(_ addresses: [MailAddress]) -> SMTPFailure {
        func masked(_ reply: SMTPReply) -> SMTPReply {
            SMTPReply(code: reply.code, text: SMTPReply.maskingAddresses(reply.text, addresses: addresses), step: reply.step)
        }
        switch self {
        case .temporaryRefusal(let reply): return .temporaryRefusal(masked(reply))
        case .permanentRefusal(let reply): return .permanentRefusal(masked(reply))
        case .tlsFailed(let code, let detail): return .tlsFailed(curlCode: code, detail: SMTPReply.maskingAddresses(detail, addresses: addresses))
        case .libcurl(let code, let detail): return .libcurl(code: code, detail: SMTPReply.maskingAddresses(detail, addresses: addresses))
        case .settings, .hostNotFound, .cannotConnect, .startTLSNotOffered, .noUsableAuthentication, .connectionLost, .cancelled,
             .unreadableMessage:
            return self
        }
    }

    /// True when the server may hold the message although it never confirmed it.
    package var serverMayHaveIt: Bool {
        switch self {
        case .connectionLost(let during, _), .cancelled(let during): during == .endOfMessage
        default: false
        }
    }
}
