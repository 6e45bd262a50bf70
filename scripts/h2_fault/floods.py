"""HTTP/2 fault server: frame floods (frames that carry no body byte, as fast as the client reads).

Endpoints:
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
"""

import struct
import time

from h2_fault.connection import (DATA, PING, PRIORITY, UNKNOWN_TYPE, WINDOW_UPDATE, Close, frame,
                                 headers_no_length, qfloat, qint)

FLOOD_BURST = 0.02          # the flood writes this long, then looks at what the client sent
WINDOW_LIMIT = 1 << 30      # total WINDOW_UPDATE increment /flood?kind=window-update grants

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
    return _flood(c, sid, kind, max(1, qint(q, "batch", 1)), max(0.0, qfloat(q, "seconds", 15.0)))


def _flood(c, sid, kind, batch, seconds):
    headers_no_length(c, sid)
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
            raise Close()
        yield 0


ROUTES = {
    "/flood": h_flood,
}
