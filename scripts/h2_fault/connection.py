"""The HTTP/2 fault server's connection core: raw frames and HPACK integers, the per-connection
state machine (an h2.connection.H2Connection with validation of outbound and inbound headers off,
requests answered once they have ended, endpoint tasks as generators), and the helpers endpoints
share. Frames h2 refuses to produce are written raw on the socket; header blocks that must be
malformed are encoded with the connection's own HPACK encoder, so the client's dynamic table stays
in step and the connection stays usable afterwards.

An endpoint is a function (connection, stream id, query) that answers at once and returns None,
or returns a generator that yields the seconds to wait before its next step. A connection without
any request or task closes after 120 s of silence.
"""

import select
import struct
import time
from urllib.parse import parse_qs, urlsplit

import h2.config
import h2.connection
import h2.events
import h2.exceptions

# Frame types and flags (RFC 9113).
DATA, HEADERS, PRIORITY, RST_STREAM, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = 0, 1, 2, 3, 6, 7, 8, 9
UNKNOWN_TYPE = 0xFA
END_STREAM, END_HEADERS = 0x1, 0x4
IDLE_SECONDS = 120          # a connection with no task and nothing received for this long closes


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


class Close(Exception):
    """Raised by an endpoint to close the TCP connection now."""


class Connection:
    """One client connection: h2 state, the socket, and per-stream tasks (generators that yield the
    seconds to wait before their next step)."""

    def __init__(self, sock, route):
        self.sock = sock
        self.route = route         # path -> endpoint (see the module's docstring)
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
                raise Close()
            got += len(data)

    def feed(self, data):
        try:
            events = self.h2.receive_data(data)
        except h2.exceptions.ProtocolError:
            if self.h2_closed:
                return          # after a GOAWAY h2 refuses frames; the client is going anyway
            self.flush()        # h2's GOAWAY
            raise Close()
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
        handler = self.route(split.path)
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


def qint(query, name, default):
    try:
        return int(query[name][0])
    except (KeyError, IndexError, ValueError):
        return default


def qfloat(query, name, default):
    try:
        return float(query[name][0])
    except (KeyError, IndexError, ValueError):
        return default


def headers_no_length(c, sid, end_stream=False):
    c.h2.send_headers(sid, [(":status", "200"), ("content-type", "application/octet-stream")],
                      end_stream=end_stream)
