internal import CCurl
#if canImport(Glibc)
import Glibc
#endif
import MailValues

extension CurlHandle {
    /// Sends one message to one recipient over libcurl's SMTP and returns the server's 2xx to it,
    /// or throws what stopped it. One connection per message (CURLOPT_FORBID_REUSE): each attempt
    /// starts clean, and its end is QUIT.
    ///
    /// How "sent" is decided: libcurl sends the final dot in `smtp_done` and waits there for the
    /// reply; `CURLE_OK` comes only with a 250 to it (any other reply is `CURLE_WEIRD_SERVER_REPLY`),
    /// and the QUIT that follows runs as the connection closes, its failures ignored, so a server
    /// that hangs up right after its 250 still gives `CURLE_OK`. On a failure the trace of the
    /// conversation (`SMTPTrace`) says which step it stopped in and what the server last said.
    func sendMail(to server: SMTPSettings.Server, settings: SMTPSettings, credentials: SMTPCredentials?,
                  from sender: MailAddress, to recipient: MailAddress, body: HTTPRequest.Body,
                  shouldStop: (() -> Bool)?, onAccepted: ((SMTPReply) -> Void)? = nil) throws(SMTPFailure) -> SMTPReply {
        curl_easy_reset(handle)
        errorBuffer[0] = 0
        let trace = SMTPTrace(recipient: recipient)
        trace.onAcceptance = onAccepted
        let source = RequestSource(body, metered: false)
        let stop = StopCheck(shouldStop)
        guard let recipients = curl_slist_append(nil, "<\(recipient.text)>") else {
            throw .libcurl(code: Int(CURLE_OUT_OF_MEMORY.rawValue), detail: "")
        }
        defer { curl_slist_free_all(recipients) }

        var rejected = CURLE_OK
        func check(_ code: CURLcode) { if rejected == CURLE_OK { rejected = code } }
        check(ccurl_setopt_string(handle, CURLOPT_URL, server.url))
        check(ccurl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "smtp,smtps"))
        check(ccurl_setopt_long(handle, CURLOPT_USE_SSL, Int(settings.insecure ? CURLUSESSL_TRY.rawValue : CURLUSESSL_ALL.rawValue)))
        check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1))
        check(ccurl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2))
        if let caFile = settings.caFile { check(ccurl_setopt_string(handle, CURLOPT_CAINFO, caFile)) }
        if let credentials {
            check(ccurl_setopt_string(handle, CURLOPT_USERNAME, credentials.user))
            check(ccurl_setopt_string(handle, CURLOPT_PASSWORD, credentials.password))
        }
        check(ccurl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(sender.text)>"))
        check(ccurl_setopt_slist(handle, CURLOPT_MAIL_RCPT, recipients))
        check(ccurl_setopt_long(handle, CURLOPT_UPLOAD, 1))
        check(ccurl_setopt_off(handle, CURLOPT_INFILESIZE_LARGE, curl_off_t(body.length)))
        check(ccurl_setopt_data_callback(handle, CURLOPT_READFUNCTION, { buffer, size, count, user in
            Unmanaged<RequestSource>.fromOpaque(user!).takeUnretainedValue().read(into: buffer!, size * count)
        }))
        check(ccurl_setopt_pointer(handle, CURLOPT_READDATA, Unmanaged.passUnretained(source).toOpaque()))
        // Nothing is downloaded; should libcurl write anything, it must not go to stdout.
        check(ccurl_setopt_data_callback(handle, CURLOPT_WRITEFUNCTION, { _, size, count, _ in size * count }))
        check(ccurl_setopt_long(handle, CURLOPT_FORBID_REUSE, 1))
        check(ccurl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
        check(ccurl_setopt_long(handle, CURLOPT_TCP_KEEPALIVE, 1))
        check(ccurl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, settings.transfer.connectTimeoutSeconds))
        // A server that stops answering a command, or stops taking the message's bytes.
        check(ccurl_setopt_long(handle, CURLOPT_SERVER_RESPONSE_TIMEOUT, settings.transfer.stallTimeoutSeconds))
        check(ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_LIMIT, 1))
        check(ccurl_setopt_long(handle, CURLOPT_LOW_SPEED_TIME, settings.transfer.stallTimeoutSeconds))
        check(ccurl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
        // The debug callback is the trace's only source: VERBOSE turns it on, and with a callback set
        // nothing is printed.
        check(ccurl_setopt_long(handle, CURLOPT_VERBOSE, 1))
        check(ccurl_setopt_debug_callback(handle, CURLOPT_DEBUGFUNCTION, { _, type, data, size, user in
            guard let data, let user else { return 0 }
            let trace = Unmanaged<SMTPTrace>.fromOpaque(user).takeUnretainedValue()
            let bytes = UnsafeRawBufferPointer(start: data, count: size)
            if type == CURLINFO_HEADER_OUT { trace.sent(bytes) } else if type == CURLINFO_HEADER_IN { trace.received(bytes) }
            return 0
        }))
        check(ccurl_setopt_pointer(handle, CURLOPT_DEBUGDATA, Unmanaged.passUnretained(trace).toOpaque()))
        if shouldStop != nil {
            // Called while the message goes out and while a reply is awaited, at least once a second.
            check(ccurl_setopt_long(handle, CURLOPT_NOPROGRESS, 0))
            check(ccurl_setopt_xferinfo_callback(handle, CURLOPT_XFERINFOFUNCTION, { user, _, _, _, _ in
                Unmanaged<StopCheck>.fromOpaque(user!).takeUnretainedValue().stopNow() ? 1 : 0
            }))
            check(ccurl_setopt_pointer(handle, CURLOPT_XFERINFODATA, Unmanaged.passUnretained(stop).toOpaque()))
        }
        guard rejected == CURLE_OK else {
            throw .libcurl(code: Int(rejected.rawValue), detail: String(cString: curl_easy_strerror(rejected)))
        }

        let code = curl_easy_perform(handle)
        // (the callbacks' objects live to here)
        withExtendedLifetime((trace, source, stop)) {}
        // The server's 2xx to the message is the proof it took it, whatever came after (a QUIT
        // that failed, a stop asked for while its reply was awaited).
        if let accepted = trace.acceptance { return accepted }
        if let failure = source.failure { throw .unreadableMessage(errno: failure) }
        let during = trace.stepReached(messageFinished: source.finished)
        if stop.stopped { throw .cancelled(during: during) }
        if let reply = trace.lastReply, reply.isTemporary || reply.isPermanent {
            throw reply.isTemporary ? .temporaryRefusal(reply) : .permanentRefusal(reply)
        }
        // (libcurl's own words may quote the server's: masked as its replies are)
        let detail = SMTPReply.maskingAddresses(errorBuffer[0] != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code)),
                                                addresses: [recipient])
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST:
            throw .hostNotFound(host: server.host)
        case CURLE_COULDNT_CONNECT:
            var osErrno = 0
            // (left at 0 when libcurl has no errno to give: the failure is still a refused connection)
            _ = ccurl_getinfo_long(handle, CURLINFO_OS_ERRNO, &osErrno)
            throw .cannotConnect(host: server.host, port: server.port, errno: Int32(osErrno))
        case CURLE_USE_SSL_FAILED where during == .hello:
            throw .startTLSNotOffered
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CACERT_BADFILE, CURLE_SSL_CERTPROBLEM,
             CURLE_SSL_CIPHER, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ISSUER_ERROR, CURLE_SSL_CRL_BADFILE, CURLE_USE_SSL_FAILED:
            throw .tlsFailed(curlCode: Int(code.rawValue), detail: detail)
        case CURLE_LOGIN_DENIED:
            throw .noUsableAuthentication
        case CURLE_OK, CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_OPERATION_TIMEDOUT, CURLE_WEIRD_SERVER_REPLY,
             CURLE_PARTIAL_FILE, CURLE_ABORTED_BY_CALLBACK:
            // (CURLE_OK without a 2xx to the message cannot happen with libcurl's SMTP; were it
            // to, the message is not confirmed, and a resend is the safe side.)
            throw .connectionLost(during: during, curlCode: Int(code.rawValue))
        default:
            throw .libcurl(code: Int(code.rawValue), detail: detail)
        }
    }
}

/// The caller's stop question, for libcurl's progress callback; remembers that it said stop.
private final class StopCheck {
    private let shouldStop: (() -> Bool)?
    private(set) var stopped = false

    init(_ shouldStop: (() -> Bool)?) { self.shouldStop = shouldStop }

    func stopNow() -> Bool {
        if !stopped, shouldStop?() == true { stopped = true }
        return stopped
    }
}
