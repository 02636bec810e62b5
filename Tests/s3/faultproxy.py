#!/usr/bin/env python3
"""A small fault-injecting HTTP/1.1 TCP proxy for the upload tests (this kernel has no netem).

    faultproxy.py LISTEN_PORT TARGET_PORT STATE_DIR

Forwards 127.0.0.1:LISTEN_PORT to 127.0.0.1:TARGET_PORT. It parses each request the client sends
(request line, headers, Content-Length body) and appends "METHOD TARGET" plus the headers to
STATE_DIR/requests.log. Faults are read from STATE_DIR/faults.json when a request starts, as a list
of rules, each used at most "count" times (the file is rewritten as counts drop):

  {"match": "PUT", "action": "reset", "after": 100000, "count": 1}
      forward `after` body bytes of a matching request, then reset the connection (RST)
  {"match": "PUT", "action": "stall", "after": 100000, "count": 1}
      forward `after` bytes, then stop forwarding and hold the connection open
  {"match": "POST ?uploadId=", "action": "respond", "status": 200, "body": "<Error>...</Error>", "count": 1}
      answer the request itself with this status and body instead of forwarding it
  {"match": "", "action": "throttle", "rate": 2000000, "count": 1000000}
      forward the body at about `rate` bytes per second
  {"match": "GET /bucket/videos/", "action": "throttle-download", "rate": 2000000, "count": 1000000}
      send the answer back at about `rate` bytes per second (from then on, for that connection)
  {"match": "", "action": "refuse", "count": 1000000}
      reset the connection before anything of the request reaches the server (a store that is down)
  {"regex": "^POST .*[?]uploads=", "action": "hold-answer", "count": 1}
      forward the request whole, then never send its answer back: the server did what was asked,
      the client never hears of it (a network gone between the two)
  {"match": "GET /bucket/videos/", "action": "cut-answer", "after": 3000000, "count": 1}
      send `after` bytes of the answer back (its head counts), then end the connection there
  {"regex": "^PUT .*[?&]partNumber=1&", "action": "pass", "count": 1000000}
      forward as is (a rule before others that would match the same requests)

"regex", when given, is a Python regular expression searched in "METHOD TARGET" instead of "match".

A test that reaches the proxy only over the network (from a qemu guest) sets the rules itself:
`PUT /.faultproxy/faults` with the JSON list as its body replaces them, `DELETE /.faultproxy/faults`
clears them (both answered 204 by the proxy, never forwarded, never faulted).

While STATE_DIR/opaque-etags exists, ETag response headers are rewritten so they are not the MD5 of
the body, as with SSE-KMS. "match" is a substring of "METHOD TARGET". Writes the port it listens on to STATE_DIR/ready once listening (LISTEN_PORT 0: one the kernel picks), and the
most request bodies it has seen forwarded at once to STATE_DIR/peak (the uploads' real parallelism).

It ends promptly, closing its sockets and exiting 0, on SIGTERM or SIGINT (even when its parent
started it with those signals blocked or ignored), and by itself when the process that started it
(the test) is gone.
"""
import json, os, re, signal, socket, struct, sys, threading, time

listen_port, target_port, state = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
lock = threading.Lock()


def take_fault(request_line):
    path = os.path.join(state, "faults.json")
    with lock:
        try:
            with open(path) as f:
                rules = json.load(f)
        except (OSError, ValueError):
            return None
        for rule in rules:
            matches = re.search(rule["regex"], request_line) if "regex" in rule else rule.get("match", "") in request_line
            if rule.get("count", 0) > 0 and matches:
                rule["count"] -= 1
                with open(path + ".tmp", "w") as f:
                    json.dump(rules, f)
                os.replace(path + ".tmp", path)
                return dict(rule)
    return None


def log(request_line, headers):
    with lock, open(os.path.join(state, "requests.log"), "a") as f:
        f.write(request_line + "\n")
        for h in headers:
            f.write("    " + h + "\n")


def reset(sock):
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        sock.close()
    except OSError:
        pass


ETAG_HEADER = re.compile(rb'(\r\netag: *")([0-9a-f]{32})', re.IGNORECASE)


def pump_back(upstream, client, pace):
    try:
        while True:
            data = upstream.recv(65536 if not pace.get("rate") else 16384)
            if not data:
                break
            if pace.get("mute"):
                continue  # a hold-answer fault: the answer goes nowhere
            if "cut" in pace:
                data = data[:max(pace["cut"], 0)]
                pace["cut"] -= len(data)
                client.sendall(data)
                if pace["cut"] <= 0:
                    break  # a cut-answer fault: the answer ends here
                continue
            if pace.get("rate"):
                time.sleep(len(data) / float(pace["rate"]))
            if os.path.exists(os.path.join(state, "opaque-etags")):
                # As SSE-KMS and several S3-compatible stores answer: an ETag that is not the MD5 of
                # the body (here the MD5's hex reversed: stable per object, never equal to it).
                data = ETAG_HEADER.sub(lambda m: m.group(1) + m.group(2)[::-1], data)
            client.sendall(data)
    except OSError:
        pass
    if pace.get("mute"):
        return  # a network gone between the two tells the client nothing, not even an end
    try:
        client.shutdown(socket.SHUT_WR)
    except OSError:
        pass


def read_headers(sock, buffer):
    while b"\r\n\r\n" not in buffer:
        data = sock.recv(65536)
        if not data:
            return None, buffer
        buffer += data
    head, rest = buffer.split(b"\r\n\r\n", 1)
    return head.decode("latin-1").split("\r\n"), rest


active = 0


def bodies_in_flight(change):
    """Counts request bodies being forwarded at once; the most seen goes to STATE_DIR/peak."""
    global active
    with lock:
        active += change
        path = os.path.join(state, "peak")
        try:
            peak = int(open(path).read())
        except (OSError, ValueError):
            peak = 0
        if active > peak:
            with open(path + ".new", "w") as f:
                f.write(str(active))
            os.replace(path + ".new", path)


def handle(client):
    upstream = socket.create_connection(("127.0.0.1", target_port))
    # How fast answers go back on this connection (a throttle-download fault sets it).
    pace = {}
    threading.Thread(target=pump_back, args=(upstream, client, pace), daemon=True).start()
    buffer = b""
    try:
        while True:
            lines, buffer = read_headers(client, buffer)
            if lines is None:
                break
            request_line = " ".join(lines[0].split(" ")[:2])
            headers = lines[1:]
            log(request_line, headers)
            length = 0
            for h in headers:
                name, _, value = h.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            if lines[0].split(" ")[1:2] and lines[0].split(" ")[1].startswith("/.faultproxy/"):
                body, buffer = read_body(client, buffer, length)
                control(client, lines[0].split(" ")[0], lines[0].split(" ")[1], body)
                reset(upstream)
                return
            fault = take_fault(request_line)
            if fault and fault["action"] == "refuse":
                reset(client)
                reset(upstream)
                return
            if fault and fault["action"] == "pass":
                fault = None
            if fault and fault["action"] == "hold-answer":
                pace["mute"] = True
                fault = None
            if fault and fault["action"] == "cut-answer":
                pace["cut"] = fault["after"]
                fault = None
            if fault and fault["action"] == "throttle-download":
                pace["rate"] = fault["rate"]
                fault = None
            if fault and fault["action"] == "respond":
                # Swallow the body, answer in the server's place.
                body, buffer = read_body(client, buffer, length)
                if body is None:
                    return
                payload = fault.get("body", "").encode()
                client.sendall(b"HTTP/1.1 %d Injected\r\nContent-Type: application/xml\r\nContent-Length: %d\r\nConnection: close\r\n\r\n"
                               % (fault.get("status", 500), len(payload)) + payload)
                reset(upstream)
                time.sleep(0.1)
                client.close()
                return
            upstream.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
            if length > 0:
                bodies_in_flight(+1)
            try:
                forwarded = forward_body(client, upstream, buffer, length, fault)
            finally:
                if length > 0:
                    bodies_in_flight(-1)
            if forwarded is None:
                return
            buffer = forwarded
    except OSError:
        pass
    finally:
        try:
            client.close()
        except OSError:
            pass
        try:
            upstream.shutdown(socket.SHUT_WR)
        except OSError:
            pass


def read_body(client, buffer, length):
    """(the request's body, what follows it in the buffer); (None, b"") when the client left first."""
    while len(buffer) < length:
        data = client.recv(65536)
        if not data:
            return None, b""
        buffer += data
    return buffer[:length], buffer[length:]


def control(client, method, target, body):
    """The proxy's own requests: PUT /.faultproxy/faults sets the rules, DELETE clears them."""
    status = b"204 No Content"
    path = os.path.join(state, "faults.json")
    if target != "/.faultproxy/faults" or body is None:
        status = b"404 Not Found"
    elif method == "PUT":
        try:
            rules = json.loads(body.decode())
            assert isinstance(rules, list)
        except (ValueError, AssertionError):
            status = b"400 Bad Request"
        else:
            with lock:
                with open(path + ".tmp", "w") as f:
                    json.dump(rules, f)
                os.replace(path + ".tmp", path)
    elif method == "DELETE":
        with lock:
            with open(path + ".tmp", "w") as f:
                json.dump([], f)
            os.replace(path + ".tmp", path)
    else:
        status = b"405 Method Not Allowed"
    client.sendall(b"HTTP/1.1 " + status + b"\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    client.close()


def forward_body(client, upstream, buffer, length, fault):
    """Sends a request body upstream, applying a reset, stall or throttle fault. Returns what is
    left in the buffer, or None when the connection is done with."""
    sent = 0
    while sent < length:
        if not buffer:
            buffer = client.recv(65536)
            if not buffer:
                return
        chunk = buffer[: length - sent]
        buffer = buffer[len(chunk):]
        if fault and fault["action"] in ("reset", "stall") and sent + len(chunk) >= fault["after"]:
            chunk = chunk[: max(fault["after"] - sent, 0)]
            upstream.sendall(chunk)
            if fault["action"] == "reset":
                reset(client)
                reset(upstream)
                return
            while True:  # stall: keep the connection open, move nothing
                time.sleep(0.5)
                try:
                    if client.recv(65536, socket.MSG_DONTWAIT) == b"":
                        break
                except BlockingIOError:
                    continue
                except OSError:
                    break
            reset(upstream)
            return
        upstream.sendall(chunk)
        sent += len(chunk)
        if fault and fault["action"] == "throttle":
            time.sleep(len(chunk) / float(fault["rate"]))
    return buffer


class Stop(Exception):
    pass


def stop(signum, frame):
    raise Stop()


def watch_parent(parent):
    """Ends the proxy when the test that started it is gone (killed, crashed), so it never outlives
    it even when nobody sends it a signal."""
    while os.getppid() == parent:
        time.sleep(0.5)
    os.kill(os.getpid(), signal.SIGTERM)


def main():
    # A parent may hand its signal mask and ignored signals down (the test runner did): take both
    # signals back, so a plain kill ends the proxy.
    # Handlers first, then unblock: a signal already pending is handled, not lost.
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM, signal.SIGINT})
    threading.Thread(target=watch_parent, args=(os.getppid(),), daemon=True).start()
    server = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        # Port 0: the kernel picks a free port and this socket holds it from that moment; a port
        # picked by the test and bound here later can be taken in between by any outgoing
        # connection of the suites running alongside (CI saw EADDRINUSE). The port is in "ready".
        server.bind(("127.0.0.1", listen_port))
        server.listen(64)
        with open(os.path.join(state, "ready.new"), "w") as f:
            f.write("%d\n" % server.getsockname()[1])
        os.rename(os.path.join(state, "ready.new"), os.path.join(state, "ready"))
        while True:
            client, _ = server.accept()
            threading.Thread(target=handle, args=(client,), daemon=True).start()
    except Stop:
        server.close()
        # Connections still open belong to daemon threads: leaving ends them and closes their sockets.
        os._exit(0)


main()
