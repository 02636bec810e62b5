"""HTTP/1.1 as a hostile peer sends it: the request target exactly as given (no normalisation, no
encoding), any method, any header, any body, from a chosen source address. Answers are read by
their Content-Length (or to the connection's end), with a time limit."""
import socket


class Answer:
    def __init__(self, status, headers, body, raw_head=""):
        self.status, self.headers, self.body, self.raw_head = status, headers, body, raw_head

    def header(self, name):
        return self.headers.get(name.lower())

    def __repr__(self):
        return f"{self.status} {self.body[:120]!r}"


def request(host, port, method, target, headers=(), body=b"", source=None, timeout=20, read_body=True, unix=None):
    """Sends one request on its own connection and returns its Answer (status 0: no answer, the
    connection was closed or reset first); to the Unix socket `unix` when given (host and port then
    name only the Host header). A header given the value None is not sent (`("Host", None)`: no Host
    at all); one given twice is sent twice."""
    if isinstance(body, str):
        body = body.encode()
    lines = [f"{method} {target} HTTP/1.1".encode("latin-1", "replace")]
    names = {name.lower() for name, _ in headers}
    if "host" not in names:
        lines.append(f"Host: {host}:{port}".encode())
    for name, value in headers:
        if value is None:
            continue
        lines.append(name.encode("latin-1", "replace") + b": " + (value if isinstance(value, bytes) else value.encode("latin-1", "replace")))
    if body and "content-length" not in names and "transfer-encoding" not in names:
        lines.append(f"Content-Length: {len(body)}".encode())
    if "connection" not in names:
        lines.append(b"Connection: close")
    data = b"\r\n".join(lines) + b"\r\n\r\n" + body
    if unix:
        connection = socket.socket(socket.AF_UNIX)
        connection.settimeout(timeout)
        connection.connect(unix)
    else:
        connection = socket.create_connection((host, port), timeout=timeout, source_address=(source, 0) if source else None)
    with connection as s:
        try:
            s.sendall(data)
        except OSError:
            pass
        return read_answer(s, method == "HEAD", read_body)


def read_answer(s, head_only=False, read_body=True):
    buffer = b""
    try:
        while b"\r\n\r\n" not in buffer:
            chunk = s.recv(65536)
            if not chunk:
                return Answer(0, {}, buffer)
            buffer += chunk
    except OSError:
        return Answer(0, {}, buffer)
    head, _, rest = buffer.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    try:
        status = int(lines[0].split(" ")[1])
    except (IndexError, ValueError):
        return Answer(-1, {}, buffer)
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    raw_head = head.decode("latin-1")
    if head_only or not read_body or status in (204, 304):
        return Answer(status, headers, rest, raw_head)
    length = headers.get("content-length")
    body = rest
    try:
        if length is not None:
            while len(body) < int(length):
                chunk = s.recv(65536)
                if not chunk:
                    break
                body += chunk
        elif headers.get("transfer-encoding", "").lower() == "chunked":
            while not body.endswith(b"0\r\n\r\n"):
                chunk = s.recv(65536)
                if not chunk:
                    break
                body += chunk
            body = dechunk(body)
        else:
            while True:
                chunk = s.recv(65536)
                if not chunk:
                    break
                body += chunk
    except OSError:
        pass
    return Answer(status, headers, body, raw_head)


def dechunk(data):
    out, rest = b"", data
    while rest:
        size_line, _, rest = rest.partition(b"\r\n")
        try:
            size = int(size_line.split(b";")[0], 16)
        except ValueError:
            break
        if size == 0:
            break
        out += rest[:size]
        rest = rest[size + 2:]
    return out
