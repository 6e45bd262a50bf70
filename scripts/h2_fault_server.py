#!/usr/bin/env python3
"""NetKit HTTP/2 fault server: misbehaving HTTP/2 (TLS, ALPN "h2") endpoints for integration tests.

Usage: h2_fault_server.py PORT CERT KEY
  PORT 0: the kernel picks a free port. CERT/KEY: the server's certificate and key (PEM).
The first line on stdout is always "PORT <n>". Binds 127.0.0.1 only. Needs the `h2` package
(python3-h2); one thread per connection, each an h2.connection.H2Connection (validation of
outbound and inbound headers off). Frames h2 refuses to produce are written raw on the socket;
header blocks that must be malformed are encoded with the connection's own HPACK encoder, so the
client's dynamic table stays in step and the connection stays usable afterwards.

Endpoints (any method; a request body is read and ignored, and the answer starts once the request
has ended; query parameters in brackets).
"No content-length" means the response has none and its body ends with END_STREAM or never.
  /ok                              200 application/json, content-length 11, {"ok":true}
  /slow [ms=1000]                  the same after ms milliseconds (other streams and connections
                                   go on meanwhile)
  /flood [kind=unknown, batch=1, seconds=15]
                                   200 headers (no content-length, no END_STREAM), then for `seconds`
                                   s, as fast as possible, frames that carry no body byte, `batch`
                                   frames per write (1: many tiny TLS records; 512: big writes); then
                                   the TCP connection closes (no END_STREAM ever). kind:
                                     unknown        frame type 0xFA, 8-byte payload, on the stream
                                     empty-data     DATA of length 0 without END_STREAM
                                     window-update  WINDOW_UPDATE increment 1 on the stream (up to a
                                                    total of 2^30, then PRIORITY frames)
                                     priority       PRIORITY on the stream (depends on 0, weight 16)
                                     ping           PING on stream 0; from then on the connection
                                                    reads and drops its input unparsed (the client's
                                                    ACKs), so it serves no other stream
                                   another kind: 400
  /rst-after-data [code=0]         200 (no content-length), DATA "partial body" (12 bytes), then
                                   RST_STREAM(code); the connection stays usable
  /rst-after-data-cl [code=0]      the same with content-length: 100
  /goaway-after-data               200 (no content-length), DATA "partial body", GOAWAY(last stream
                                   = this one, NO_ERROR), the socket closes ~100 ms later
  /close-after-data                200 (no content-length), DATA "partial body", then a TCP close
  /oversized-data                  200 (no content-length), then one DATA frame of 20000 bytes with
                                   END_STREAM (above the client's SETTINGS_MAX_FRAME_SIZE 16384)
  /data-on-stream-0                200 (no END_STREAM), a DATA frame "x" on stream 0, then silence;
                                   the server closes the connection after 30 s (or when the client
                                   does)
  Raw header blocks, each followed by DATA "hello" with END_STREAM:
  /two-content-lengths             :status 200, content-length: 5, content-length: 7
  /duplicate-status                :status 200 twice
  /missing-status                  content-type: text/plain only
  /non-numeric-status              :status abc
  /uppercase-header                :status 200, X-Upper: 1
  /hpack-bomb                      :status 200, x-bomb (4000-byte value, literal with incremental
                                   indexing), then 4000 one-byte references to that dynamic-table
                                   entry: ~8 KB on the wire, ~16 MB of decoded header list
  /big-header [bytes=300000]       :status 200 and x-big of `bytes` bytes, in HEADERS + CONTINUATION
  Interim responses:
  /early-hints                     103 with "link: </style.css>; rel=preload", then the /ok answer
  /headers                         200 {"headers": {...}}: the request's header fields as received
  /cache/<key>, /cache/<key>/stats the HTTP cache origin of cache_origin.py (state of its own)
  /redirect?to=URL                 302 to URL
  /set-cookies [line...]           200 {"count": n} with one set-cookie field per `line`, as given
  /endless-interim                 103 every 10 ms for ever (until the client goes), never a final
                                   response
  anything else                    404 text/plain "not found"

A connection without any request or task closes after 120 s of silence. A client that negotiated
no ALPN and sends something other than the HTTP/2 preface gets an HTTP/1.1 505.
"""

import json
import select
import socket
import socketserver
import ssl
import struct
import sys
import time
import traceback
from urllib.parse import parse_qs, urlsplit

import h2.config
import h2.connection
import h2.events
import h2.exceptions

from cache_origin import CacheOrigin
from serving import serve

# Frame types and flags (RFC 9113).
DATA, HEADERS, PRIORITY, RST_STREAM, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = 0, 1, 2, 3, 6, 7, 8, 9
UNKNOWN_TYPE = 0xFA
END_STREAM, END_HEADERS = 0x1, 0x4

IDLE_SECONDS = 120          # a connection with no task and nothing received for this long closes
WRITE_TIMEOUT = 10          # a blocked write (client not reading) longer than this ends the connection
FLOOD_BURST = 0.02          # the flood writes this long, then looks at what the client sent
PARTIAL = b"partial body"
OK_BODY = b'{"ok":true}'
WINDOW_LIMIT = 1 << 30      # total WINDOW_UPDATE increment /flood?kind=window-update grants

_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def frame(ftype, flags, stream_id, payload=b""):
    """One raw frame: 3-byte length, type, flags, 4-byte stream id (top bit clear), payload."""
    return struct.pack(">I", len(payload))[1:] + struct.pack(">BBI", ftype, flags,
                                                              stream_id & 0x7FFFFFFF) + payload


def hpack_int(value, prefix_bits, first_byte_bits=0):
    """HPACK integer encoding (RFC 7541 5.1); first_byte_bits are ORed into the first byte."""
    limit = (1 << prefix_bits) - 1
    if value < limit:
        return bytes([first_byte_bits | value])
    out = bytearray([first_byte_bits | limit])
    value -= limit
    while value >= 128:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


class _Close(Exception):
    """Raised by an endpoint to close the TCP connection now."""


class _Connection:
    """One client connection: h2 state, the socket, and per-stream tasks (generators that yield the
    seconds to wait before their next step)."""

    def __init__(self, sock):
        self.sock = sock
        self.h2 = h2.connection.H2Connection(config=h2.config.H2Configuration(
            client_side=False, validate_outbound_headers=False, normalize_outbound_headers=False,
            validate_inbound_headers=False))
        self.tasks = {}            # stream id -> [wake time, generator]
        self.requests = {}         # stream id -> request headers, until the request's END_STREAM
        self.h2_closed = False     # GOAWAY sent or received: h2 refuses further frames
        self.discard_input = False  # a ping flood: what the client sends is read and dropped unparsed
        self.last_rx = time.monotonic()
        self.request_headers = []  # the request being started (see `start`)
        self.method = "GET"

    # ---- output --------------------------------------------------------------------------------
    def flush(self):
        data = self.h2.data_to_send()
        if data:
            self.sock.sendall(data)

    def raw(self, data):
        """Writes raw frames after whatever h2 has queued (so the order on the wire is kept)."""
        self.flush()
        self.sock.sendall(data)

    def forget(self, stream_id):
        """After a stream ended in raw frames: closes it inside h2 without sending anything (h2
        would otherwise count it against MAX_CONCURRENT_STREAMS for ever)."""
        self.flush()
        try:
            self.h2.reset_stream(stream_id)
        except h2.exceptions.H2Error:
            pass
        self.h2.data_to_send()   # drop the RST_STREAM h2 queued

    def raw_headers(self, stream_id, block, end_stream=False):
        """A header block as HEADERS (+ CONTINUATION frames when it exceeds the peer's max frame
        size)."""
        size = max(16384, self.h2.max_outbound_frame_size)
        pieces = [block[i:i + size] for i in range(0, len(block), size)] or [b""]
        out = []
        for i, piece in enumerate(pieces):
            flags = END_HEADERS if i == len(pieces) - 1 else 0
            if i == 0:
                out.append(frame(HEADERS, flags | (END_STREAM if end_stream else 0), stream_id, piece))
            else:
                out.append(frame(CONTINUATION, flags, stream_id, piece))
        self.raw(b"".join(out))

    def encode(self, headers):
        """HPACK with the connection's own encoder: its dynamic table matches the client's."""
        return self.h2.encoder.encode(headers, huffman=False)

    def respond_with(self, stream_id, status, headers, body, content_type):
        """`status` with `headers` (a dict) and `body`; no body for 1xx, 204, 304 or a HEAD
        request, and no content-length for the statuses that never have one."""
        no_content = status in (204, 304) or 100 <= status < 200
        fields = [(":status", str(status))] + ([("content-type", content_type)] if content_type else [])
        fields += [(name.lower(), value) for name, value in headers.items()]
        if not no_content:
            fields.append(("content-length", str(len(body))))
        bodyless = no_content or self.method == "HEAD"
        self.h2.send_headers(stream_id, fields, end_stream=bodyless)
        if not bodyless:
            self.h2.send_data(stream_id, body, end_stream=True)
        self.flush()

    def respond(self, stream_id, status, body, content_type="application/json"):
        self.h2.send_headers(stream_id, [(":status", str(status)), ("content-type", content_type),
                                         ("content-length", str(len(body)))])
        self.h2.send_data(stream_id, body, end_stream=True)
        self.flush()

    # ---- loop ----------------------------------------------------------------------------------
    def run(self, first):
        self.h2.initiate_connection()
        self.flush()
        if first:
            self.feed(first)
        while True:
            now = time.monotonic()
            if self.tasks:
                timeout = max(0.0, min(t[0] for t in self.tasks.values()) - now)
            else:
                timeout = self.last_rx + IDLE_SECONDS - now
                if timeout <= 0:
                    return
            if self.sock.pending() or select.select([self.sock], [], [], timeout)[0]:
                data = self.sock.recv(65536)
                if not data:
                    return
                self.last_rx = time.monotonic()
                if self.discard_input:
                    self.drain()
                else:
                    self.feed(data)
            self.run_due()

    def drain(self, limit=1 << 22):
        """Reads and drops what the client has sent so far (up to limit bytes)."""
        sock, got = self.sock, 0
        while got < limit and (sock.pending() or select.select([sock], [], [], 0)[0]):
            data = sock.recv(65536)
            if not data:
                raise _Close()
            got += len(data)

    def feed(self, data):
        try:
            events = self.h2.receive_data(data)
        except h2.exceptions.ProtocolError:
            if self.h2_closed:
                return          # after a GOAWAY h2 refuses frames; the client is going anyway
            self.flush()        # h2's GOAWAY
            raise _Close()
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                self.requests[event.stream_id] = event.headers
            elif isinstance(event, h2.events.DataReceived):
                try:
                    self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                except h2.exceptions.H2Error:
                    pass
            elif isinstance(event, h2.events.StreamEnded):
                # Answers once the whole request (body included) is in: curl 7.88 stops reading
                # (and so never sees WINDOW_UPDATE) once a response is complete, and an upload
                # above 64 KiB answered early would stall.
                headers = self.requests.pop(event.stream_id, None)
                if headers is not None:
                    self.start(event.stream_id, headers)
            elif isinstance(event, h2.events.StreamReset):
                self.requests.pop(event.stream_id, None)
                self.tasks.pop(event.stream_id, None)
            elif isinstance(event, h2.events.ConnectionTerminated):
                self.h2_closed = True
        self.flush()

    def start(self, stream_id, headers):
        path = "/"
        for name, value in headers:
            name = name.decode("latin-1") if isinstance(name, bytes) else name
            if name == ":path":
                path = value.decode("latin-1") if isinstance(value, bytes) else value
        split = urlsplit(path)
        query = parse_qs(split.query, keep_blank_values=True)
        handler = ROUTES.get(split.path, _not_found)
        if (cache := CacheOrigin.route(split.path)) is not None:
            handler = _cache_handler(*cache)
        self.request_headers = headers
        self.method = self.header(":method") or "GET"
        try:
            result = handler(self, stream_id, query)
            if result is not None:      # a generator: runs now, and on
                self.tasks[stream_id] = [time.monotonic(), result]
        except (h2.exceptions.StreamClosedError, h2.exceptions.ProtocolError):
            pass

    def header(self, name):
        """The current request's header `name` (any case), or None."""
        wanted = name.lower()
        for field, value in self.request_headers:
            field = field.decode("latin-1") if isinstance(field, bytes) else field
            if field.lower() == wanted:
                return value.decode("latin-1") if isinstance(value, bytes) else value
        return None

    def run_due(self):
        now = time.monotonic()
        for stream_id, task in list(self.tasks.items()):
            if task[0] > now or self.tasks.get(stream_id) is not task:
                continue
            try:
                delay = next(task[1])
            except StopIteration:
                self.tasks.pop(stream_id, None)
                continue
            except (h2.exceptions.StreamClosedError, h2.exceptions.ProtocolError):
                self.tasks.pop(stream_id, None)
                continue
            task[0] = time.monotonic() + (delay or 0)


# ---- endpoints ---------------------------------------------------------------------------------
def _qint(query, name, default):
    try:
        return int(query[name][0])
    except (KeyError, IndexError, ValueError):
        return default


def _qfloat(query, name, default):
    try:
        return float(query[name][0])
    except (KeyError, IndexError, ValueError):
        return default


def _headers_no_length(c, sid, end_stream=False):
    c.h2.send_headers(sid, [(":status", "200"), ("content-type", "application/octet-stream")],
                      end_stream=end_stream)


def _not_found(c, sid, q):
    c.respond(sid, 404, b"not found", "text/plain")


def h_ok(c, sid, q):
    c.respond(sid, 200, OK_BODY)


def h_slow(c, sid, q):
    yield max(0, _qint(q, "ms", 1000)) / 1000.0
    c.respond(sid, 200, OK_BODY)


_FLOOD_FRAMES = {
    "unknown": lambda sid: frame(UNKNOWN_TYPE, 0, sid, b"\x00" * 8),
    "empty-data": lambda sid: frame(DATA, 0, sid),
    "window-update": lambda sid: frame(WINDOW_UPDATE, 0, sid, struct.pack(">I", 1)),
    "priority": lambda sid: frame(PRIORITY, 0, sid, struct.pack(">IB", 0, 15)),
    "ping": lambda sid: frame(PING, 0, 0, b"netkit!!"),
}


def h_flood(c, sid, q):
    kind = (q.get("kind") or ["unknown"])[0]
    if kind not in _FLOOD_FRAMES:
        c.respond(sid, 400, b"unknown kind", "text/plain")
        return None
    return _flood(c, sid, kind, max(1, _qint(q, "batch", 1)), max(0.0, _qfloat(q, "seconds", 15.0)))


def _flood(c, sid, kind, batch, seconds):
    _headers_no_length(c, sid)
    c.flush()
    chunk = _FLOOD_FRAMES[kind](sid) * batch
    granted = 0                                    # window-update: total increment so far
    deadline = time.monotonic() + seconds
    c.sock.settimeout(seconds + 1)                 # a client that stops reading ends it too
    sendall = c.sock.sendall
    monotonic = time.monotonic
    ping = kind == "ping"
    if ping:
        # The client answers every PING with an ACK; h2 would parse them far slower than they come,
        # and unread ACKs block the client's writes, which makes nghttp2 give up ("flooded") early.
        # From now on this connection reads and drops its input (it closes when the flood ends).
        c.flush()
        c.discard_input = True
    while True:
        now = monotonic()
        burst_end = min(deadline, now + FLOOD_BURST)
        while now < burst_end:
            if kind == "window-update":
                if granted + batch > WINDOW_LIMIT:
                    kind, chunk = "priority", _FLOOD_FRAMES["priority"](sid) * batch
                else:
                    granted += batch
            sendall(chunk)
            if ping:
                c.drain()
            now = monotonic()
        if now >= deadline:
            raise _Close()
        yield 0


def _data_then(c, sid, content_length=None):
    headers = [(":status", "200"), ("content-type", "application/octet-stream")]
    if content_length is not None:
        headers.append(("content-length", str(content_length)))
    c.h2.send_headers(sid, headers)
    c.h2.send_data(sid, PARTIAL)
    c.flush()


def h_rst_after_data(c, sid, q):
    _data_then(c, sid)
    c.h2.reset_stream(sid, error_code=_qint(q, "code", 0))
    c.flush()


def h_rst_after_data_cl(c, sid, q):
    _data_then(c, sid, content_length=100)
    c.h2.reset_stream(sid, error_code=_qint(q, "code", 0))
    c.flush()


def h_goaway_after_data(c, sid, q):
    _data_then(c, sid)
    c.h2.close_connection(error_code=0, last_stream_id=sid)
    c.h2_closed = True
    c.flush()
    return _close_after(0.1)


def _close_after(seconds):
    yield seconds
    raise _Close()


def h_close_after_data(c, sid, q):
    _data_then(c, sid)
    raise _Close()


def h_oversized_data(c, sid, q):
    _headers_no_length(c, sid)
    c.raw(frame(DATA, END_STREAM, sid, b"o" * 20000))
    c.forget(sid)


def h_data_on_stream_0(c, sid, q):
    _headers_no_length(c, sid)
    c.raw(frame(DATA, 0, 0, b"x"))
    return _close_after(30)


def _raw_response(c, sid, headers):
    c.raw_headers(sid, c.encode(headers))
    c.raw(frame(DATA, END_STREAM, sid, b"hello"))
    c.forget(sid)


def h_two_content_lengths(c, sid, q):
    _raw_response(c, sid, [(":status", "200"), ("content-length", "5"), ("content-length", "7")])


def h_duplicate_status(c, sid, q):
    _raw_response(c, sid, [(":status", "200"), (":status", "200")])


def h_missing_status(c, sid, q):
    _raw_response(c, sid, [("content-type", "text/plain")])


def h_non_numeric_status(c, sid, q):
    _raw_response(c, sid, [(":status", "abc")])


def h_uppercase_header(c, sid, q):
    _raw_response(c, sid, [(":status", "200"), ("X-Upper", "1")])


def h_hpack_bomb(c, sid, q):
    name, value = b"x-bomb", b"b" * 4000
    # The literal goes through the connection's encoder, which adds it to its dynamic table exactly
    # as the client's decoder does (it fits the default 4096-byte table), then 4000 indexed
    # references to it are appended by hand.
    block = c.encode([(":status", "200"), (name, value)])
    match = c.h2.encoder.header_table.search(name, value)
    if match is not None and match[2] is not None:
        block += hpack_int(match[0], 7, 0x80) * 4000
    else:   # the client shrank the table: no entry to point at, repeat the literal (still ~16 MB)
        block += c.encode([(name, value)] * 4000)
    c.raw_headers(sid, block)
    c.raw(frame(DATA, END_STREAM, sid, b"hello"))
    c.forget(sid)


def h_big_header(c, sid, q):
    n = max(0, _qint(q, "bytes", 300000))
    _raw_response(c, sid, [(":status", "200"), ("x-big", "v" * n)])


def h_headers(c, sid, q):
    """200 {"headers": {name: value}}: the request's regular header fields as received."""
    fields = {}
    for name, value in c.request_headers:
        name = name.decode("latin-1") if isinstance(name, bytes) else name
        value = value.decode("latin-1") if isinstance(value, bytes) else value
        if not name.startswith(":"):
            fields[name] = value if name not in fields else fields[name] + ", " + value
    c.respond(sid, 200, json.dumps({"headers": fields}).encode())


def h_redirect(c, sid, q):
    """302 to the URL in `to`."""
    location = q.get("to", ["/ok"])[0]
    c.h2.send_headers(sid, [(":status", "302"), ("location", location), ("content-length", "0")], end_stream=True)
    c.flush()


def h_set_cookies(c, sid, q):
    """200 with one set-cookie field per `line` query value (commas and quotes kept as given)."""
    lines = q.get("line", [])
    body = json.dumps({"count": len(lines)}).encode()
    fields = [(":status", "200"), ("content-type", "application/json"), ("content-length", str(len(body)))]
    fields += [("set-cookie", line) for line in lines]
    c.h2.send_headers(sid, fields)
    c.h2.send_data(sid, body, end_stream=True)
    c.flush()


def h_early_hints(c, sid, q):
    c.h2.send_headers(sid, [(":status", "103"), ("link", "</style.css>; rel=preload")])
    c.flush()
    c.respond(sid, 200, OK_BODY)


def h_endless_interim(c, sid, q):
    while True:
        c.h2.send_headers(sid, [(":status", "103"), ("link", "</style.css>; rel=preload")])
        c.flush()
        yield 0.01


_cache_origin = CacheOrigin()


def _cache_handler(key, is_stats):
    def handle(c, sid, q):
        if is_stats:
            return c.respond(sid, 200, _cache_origin.stats(key))
        query = {name: values[0] for name, values in q.items() if values}
        status, headers, body, content_type = _cache_origin.answer(key, c.method, query, c.header)
        c.respond_with(sid, status, headers, body, content_type)
    return handle


ROUTES = {
    "/ok": h_ok,
    "/slow": h_slow,
    "/flood": h_flood,
    "/rst-after-data": h_rst_after_data,
    "/rst-after-data-cl": h_rst_after_data_cl,
    "/goaway-after-data": h_goaway_after_data,
    "/close-after-data": h_close_after_data,
    "/oversized-data": h_oversized_data,
    "/data-on-stream-0": h_data_on_stream_0,
    "/two-content-lengths": h_two_content_lengths,
    "/duplicate-status": h_duplicate_status,
    "/missing-status": h_missing_status,
    "/non-numeric-status": h_non_numeric_status,
    "/uppercase-header": h_uppercase_header,
    "/hpack-bomb": h_hpack_bomb,
    "/big-header": h_big_header,
    "/early-hints": h_early_hints,
    "/headers": h_headers,
    "/redirect": h_redirect,
    "/set-cookies": h_set_cookies,
    "/endless-interim": h_endless_interim,
}


# ---- server ------------------------------------------------------------------------------------
class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        raw = self.request
        raw.settimeout(WRITE_TIMEOUT)
        try:
            raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass
        sock = None
        try:
            sock = self.server.context.wrap_socket(raw, server_side=True)
            first = sock.recv(65536)
            if not first:
                return
            if sock.selected_alpn_protocol() != "h2" and not _PREFACE.startswith(first[:24]):
                body = b"this server speaks HTTP/2 only\n"
                sock.sendall(b"HTTP/1.1 505 HTTP Version Not Supported\r\nContent-Type: text/plain\r\n"
                             b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
                return
            _Connection(sock).run(first)
        except (_Close, OSError):   # OSError covers ssl.SSLError and the client going away
            pass
        except Exception:          # an h2 surprise: log it, end this connection only
            print("connection failed:\n" + traceback.format_exc(), file=sys.stderr, flush=True)
        finally:
            try:
                (sock or raw).close()
            except OSError:
                pass


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256

    def handle_error(self, request, client_address):
        pass


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    port, cert, key = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["h2"])
    server = Server(("127.0.0.1", port), Handler)
    server.context = context
    serve(server)


if __name__ == "__main__":
    main()
