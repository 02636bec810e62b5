#!/usr/bin/python3
"""A real SMTP server on loopback for the mail tests: aiosmtpd (Debian's python3-aiosmtpd), with
STARTTLS or implicit TLS on a certificate openssl makes at start, AUTH, and faults on demand.

    smtp-server.py STATE_DIR [--tls starttls|implicit|none] [--auth USER:PASSWORD]

With --tls starttls (the default) the server offers STARTTLS and refuses mail before it
(aiosmtpd's require_starttls); implicit speaks TLS from the first byte (smtps://); none offers no
TLS at all. The certificate (STATE_DIR/cert.pem, for localhost and 127.0.0.1, which is also the CA
file a client trusts) is made by openssl unless it is there already. --auth requires AUTH PLAIN or
LOGIN with that user and password, over TLS only.

Each message the server takes is written to STATE_DIR/mail/NNNN.eml exactly as it arrived (after
the SMTP dot-unstuffing), with NNNN.json beside it: {"mail_from", "rcpt_tos", "mail_options",
"tls", "auth", "confirmed"}; "confirmed" is false for a message the server read in full but did not
answer 250 to (the fault modes below). Both are written to a temporary name and renamed, so a reader
never sees half of one. STATE_DIR/events.log gets one JSON line per connection, STARTTLS, AUTH,
transaction and fault.

Faults are read from STATE_DIR/fault.json (rewrite it by renaming a new file over it), one object:

  {"mode": "down"}                       no listening socket: connections are refused; it listens
                                         again on the same port once the mode is anything else
  {"mode": "cut-data", "after": 65536}   after the 354 to DATA, read that many bytes of the message,
                                         then reset the connection (RST): before the final reply
  {"mode": "cut-after-data"}             read the whole message (up to its final dot), keep it as
                                         unconfirmed, reset the connection without replying
  {"mode": "stall-after-data"}           read the whole message, keep it as unconfirmed, never reply
                                         (the connection stays open)
  {"mode": "cut-after-250"}              take the message, answer 250, close the connection at once
  {"mode": "refuse", "at": "mail|rcpt|message", "code": 451, "text": "4.7.1 Try again later"}
                                         answer that reply to MAIL FROM, RCPT TO or the end of the
                                         message (the message is then not kept)

"count": N in any mode but down applies it to the next N transactions (MAIL FROM commands) only,
then the server behaves normally (the file is rewritten as the count drops), so {"mode": "refuse",
"code": 451, "count": 2} answers 4xx to the first two attempts and takes the third.

The port it listens on goes to STATE_DIR/ready once it is bound (0 on the command line: one the
kernel picks). It ends on SIGTERM or SIGINT, and by itself when the process that started it is gone.
"""
import argparse, asyncio, json, os, signal, socket, ssl, subprocess, sys, threading, time

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword

parser = argparse.ArgumentParser()
parser.add_argument("state")
parser.add_argument("--tls", choices=["starttls", "implicit", "none"], default="starttls")
parser.add_argument("--auth")
parser.add_argument("--port", type=int, default=0)
args = parser.parse_args()
state = args.state
os.makedirs(os.path.join(state, "mail"), exist_ok=True)
fault_lock = threading.Lock()


def event(**fields):
    with open(os.path.join(state, "events.log"), "a") as f:
        f.write(json.dumps(fields) + "\n")


def current_fault():
    try:
        with open(os.path.join(state, "fault.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return {}


def take_fault():
    """The fault for the transaction starting now, counting it off when it has a count."""
    with fault_lock:
        fault = current_fault()
        mode = fault.get("mode", "normal")
        if mode in ("normal", "down"):
            return {}
        if "count" in fault:
            if fault["count"] <= 0:
                return {}
            fault["count"] -= 1
            path = os.path.join(state, "fault.json")
            with open(path + ".tmp", "w") as f:
                json.dump(fault, f)
            os.replace(path + ".tmp", path)
        return fault


def keep(envelope, session, server, confirmed):
    """Writes the message and its envelope under the next free number."""
    folder = os.path.join(state, "mail")
    number = len([n for n in os.listdir(folder) if n.endswith(".eml")]) + 1
    base = os.path.join(folder, "%04d" % number)
    with open(base + ".eml.tmp", "wb") as f:
        f.write(envelope.original_content)
    with open(base + ".json.tmp", "w") as f:
        json.dump({"mail_from": envelope.mail_from, "rcpt_tos": envelope.rcpt_tos,
                   "mail_options": envelope.mail_options, "tls": server.tls_on(),
                   "auth": session.auth_data.decode() if isinstance(session.auth_data, bytes) else None,
                   "confirmed": confirmed}, f)
    # The envelope first: a reader that finds the .eml finds its .json.
    os.replace(base + ".json.tmp", base + ".json")
    os.replace(base + ".eml.tmp", base + ".eml")
    event(event="kept", file=os.path.basename(base) + ".eml", confirmed=confirmed)
    return number


class Handler:
    async def handle_MAIL(self, server, session, envelope, address, options):
        envelope.fault = take_fault()
        event(event="mail", mail_from=address, tls=server.tls_on(), fault=envelope.fault.get("mode", "normal"))
        reply = refusal(envelope, "mail")
        if reply:
            return reply
        envelope.mail_from = address
        envelope.mail_options.extend(options)
        return "250 OK"

    async def handle_RCPT(self, server, session, envelope, address, options):
        reply = refusal(envelope, "rcpt")
        if reply:
            return reply
        envelope.rcpt_tos.append(address)
        envelope.rcpt_options.extend(options)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        mode = getattr(envelope, "fault", {}).get("mode")
        reply = refusal(envelope, "message")
        if reply:
            return reply
        if mode in ("cut-after-data", "stall-after-data"):
            # (FaultySMTP.smtp_DATA cuts the connection once this returns)
            keep(envelope, session, server, confirmed=False)
            server.silenced = True
            return "250 OK (never sent)"
        return "250 2.0.0 OK queued as %04d" % keep(envelope, session, server, confirmed=True)


def refusal(envelope, at):
    fault = getattr(envelope, "fault", {})
    if fault.get("mode") == "refuse" and fault.get("at", "rcpt") == at:
        event(event="refused", at=at, code=fault.get("code", 451))
        return "%d %s" % (fault.get("code", 451), fault.get("text", "4.7.1 Try again later"))
    return None


class FaultySMTP(SMTP):
    silenced = False

    def tls_on(self):
        return args.tls == "implicit" or self._tls_protocol is not None

    def connection_made(self, transport):
        # (called again with the TLS transport after STARTTLS: one connection, one event)
        if self._tls_protocol is None:
            event(event="connect")
        super().connection_made(transport)

    async def push(self, status):
        # After a fault that leaves the client without an answer, nothing more is said.
        if not self.silenced:
            await super().push(status)

    async def smtp_STARTTLS(self, arg):
        event(event="starttls")
        await super().smtp_STARTTLS(arg)

    async def smtp_DATA(self, arg):
        fault = getattr(self.envelope, "fault", {})
        if fault.get("mode") == "cut-data" and self.envelope.rcpt_tos and not arg:
            await self.push("354 End data with <CR><LF>.<CR><LF>")
            wanted, seen = fault.get("after", 65536), b""
            while len(seen) < wanted and not seen.endswith(b"\r\n.\r\n"):
                chunk = await self._reader.read(wanted - len(seen))
                if not chunk:
                    break
                seen += chunk
            event(event="cut", where="in the message", read=len(seen))
            self.cut()
        await super().smtp_DATA(arg)
        if fault.get("mode") == "cut-after-data":
            event(event="cut", where="after the message, before its reply")
            self.cut()
        elif fault.get("mode") == "stall-after-data":
            event(event="stall", where="after the message, before its reply")
        elif fault.get("mode") == "cut-after-250" and self.transport is not None:
            event(event="cut", where="after the 250")
            self.transport.close()

    def cut(self):
        """Resets the connection (RST: unread bytes are left) and ends this client's handler, which
        would otherwise go on reading what is buffered as commands."""
        self.silenced = True
        self.transport.abort()
        raise asyncio.CancelledError()


def certificate():
    cert, key = os.path.join(state, "cert.pem"), os.path.join(state, "key.pem")
    if not os.path.exists(cert):
        subprocess.run(["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
                        "-nodes", "-keyout", key, "-out", cert, "-days", "2", "-subj", "/CN=localhost",
                        "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context


def authenticator(server, session, envelope, mechanism, data):
    user, _, password = args.auth.partition(":")
    ok = isinstance(data, LoginPassword) and data.login == user.encode() and data.password == password.encode()
    event(event="auth", mechanism=mechanism, ok=ok, tls=server.tls_on())
    # (handled=False: aiosmtpd then answers a failure with its 535)
    return AuthResult(success=ok, handled=False, auth_data=data.login if ok else None)


async def serve():
    context = certificate() if args.tls != "none" else None

    def protocol():
        return FaultySMTP(Handler(), hostname="mail.test", ident="recorder test SMTP",
                          tls_context=context if args.tls == "starttls" else None,
                          require_starttls=args.tls == "starttls",
                          authenticator=authenticator if args.auth else None,
                          # (aiosmtpd counts only STARTTLS as TLS; with implicit TLS every byte is)
                          auth_required=bool(args.auth), auth_require_tls=args.tls == "starttls")

    loop = asyncio.get_running_loop()
    holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    holder.bind(("127.0.0.1", args.port))
    port = holder.getsockname()[1]
    server = None
    first = True
    while True:
        down = current_fault().get("mode") == "down"
        if server is None and not down:
            # A bound socket that does not listen refuses connections and keeps the port.
            server = await loop.create_server(protocol, sock=holder, ssl=context if args.tls == "implicit" else None)
            event(event="listening", port=port)
        elif server is not None and down:
            server.close()
            holder = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            holder.bind(("127.0.0.1", port))
            server = None
            event(event="down", port=port)
        if first:
            with open(os.path.join(state, "ready.new"), "w") as f:
                f.write("%d\n" % port)
            os.replace(os.path.join(state, "ready.new"), os.path.join(state, "ready"))
            first = False
        await asyncio.sleep(0.05)


def watch_parent(parent):
    while os.getppid() == parent:
        time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGTERM)


def main():
    # A parent may hand its signal mask and ignored signals down (the test runner did): take both back.
    for number in (signal.SIGTERM, signal.SIGINT):
        signal.signal(number, lambda *_: os._exit(0))
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    threading.Thread(target=watch_parent, args=(os.getppid(),), daemon=True).start()
    asyncio.run(serve())


main()
