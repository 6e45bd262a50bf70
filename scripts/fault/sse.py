"""HTTP/1.1 fault server: server-sent events. Each stream (all but
/sse/mixed-expected) is a 200 "Content-Type: text/event-stream" with no Content-Length; its body
ends when the server closes the connection (TCP_NODELAY, so each write leaves at once).

Endpoints:
  /sse/mixed                       a fixed script (see _SSE_MIXED) that uses every line ending (LF,
                                   CRLF, CR, and a CRLF split between two writes 20 ms apart),
                                   a leading BOM, comments, a multi-line data event, event types,
                                   ids (one with a NUL, ignored; one empty, clearing the id),
                                   retry: 1500, invalid retries, a field without a colon, a value
                                   without a space after the colon, unknown and wrongly-cased
                                   fields, and a last event without its blank line; then a close.
                                   A correct parser yields exactly these 7 events
                                   (event type, data, id, retry; "-" is none):
                                     1 message   "first"              -  -
                                     2 greeting  "hello\\n world"      -  -
                                     3 message   "no-space"           7  -
                                     4 message   ""                   7  1500 ms
                                     5 update    '{"n":1}\\n{"n":2}'   8  -
                                     6 message   "type reset"         8  -
                                     7 message   "last"               -  -
                                   ("\\n" is one line feed; retry 1500 comes from a block without
                                   data, so it is reported with event 4; at the end the last event
                                   ID is none and the reconnection time 1500 ms.)
  /sse/mixed-expected              200 application/json, those events:
                                   {"events": [{"event","data","id","retry_ms"}, ...],
                                    "last_event_id": null, "reconnection_time_ms": 1500}
                                   (id and retry_ms are null when the event has none)
  /sse/drip [count=10, interval_ms=100]  "data: <i>\\n\\n" for i in 0..<count, one every
                                   interval_ms (the first at once), then a close
  /sse/reset [after=3]             "id: <i>\\ndata: <i>\\n\\n" for i in 1...after, then (200 ms
                                   later) RST
  /sse/endless [size=1024]         "data: " + size bytes of "x" + "\\n\\n" as fast as the client
                                   reads, for ever (until the client goes): backpressure tests
  /sse/resume                      with "Last-Event-ID: N" (an integer): "id: <i>\\ndata: <i>\\n\\n"
                                   for i in N+1...N+3, then a close; without the header:
                                   "retry: 100" with the first event, i in 1...3, then (200 ms
                                   later) RST, so a client reconnects with Last-Event-ID: 3.
                                   A Last-Event-ID that is not an integer gets 400.
"""

import socket
import time

from serving import CHUNK

# /sse/mixed: the body, as separate writes (the pause between two writes lets them arrive as
# separate reads; the split inside "\r\n" tests a CR LF pair cut between two chunks).
_SSE_MIXED = [
    b"\xef\xbb\xbf: NetKit /sse/mixed, a comment after the BOM\n",
    b"data: first\n\n",                                                   # 1 (LF)
    b"event: greeting\r\ndata: hello\r",                                  # 2 (CRLF, split)
    b"\ndata:  world\r\n\r\n",
    b"id: 7\rdata:no-space\r\r",                                          # 3 (CR)
    b"retry: 1500\n\n",                                                   # no data: no event
    b"data\n\n",                                                          # 4 (no colon)
    b"event: update\r\ndata: {\"n\":1}\r\n: a comment inside an event\r\n"
    b"data: {\"n\":2}\r\nid: 8\r\n\r\n",                                  # 5
    b"event\nid: bad\x00id\ndata: type reset\n\n",                        # 6 (type reset)
    b"retry: 1.5\nretry: 2000ms\nunknown: ignored\nData: wrong case\n"
    b"data: last\rid\r\r",                                                # 7 (id cleared)
    b"data: discarded, no blank line follows\n",
]
_SSE_MIXED_EXPECTED = {
    "events": [
        {"event": "message", "data": "first", "id": None, "retry_ms": None},
        {"event": "greeting", "data": "hello\n world", "id": None, "retry_ms": None},
        {"event": "message", "data": "no-space", "id": "7", "retry_ms": None},
        {"event": "message", "data": "", "id": "7", "retry_ms": 1500},
        {"event": "update", "data": "{\"n\":1}\n{\"n\":2}", "id": "8", "retry_ms": None},
        {"event": "message", "data": "type reset", "id": "8", "retry_ms": None},
        {"event": "message", "data": "last", "id": None, "retry_ms": None},
    ],
    "last_event_id": None,
    "reconnection_time_ms": 1500,
}


class SSEEndpoints:
    ROUTES = {
        "/sse/mixed": "h_sse_mixed",
        "/sse/mixed-expected": "h_sse_mixed_expected",
        "/sse/drip": "h_sse_drip",
        "/sse/reset": "h_sse_reset",
        "/sse/endless": "h_sse_endless",
        "/sse/resume": "h_sse_resume",
    }

    def _sse_start(self):
        """200 text/event-stream, no Content-Length: the body ends with the connection."""
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Connection", "close")
        self.end_headers()
        self.wfile.flush()

    def _sse_write(self, data):
        self.wfile.write(data)
        self.wfile.flush()

    def h_sse_mixed(self):
        self._sse_start()
        for piece in _SSE_MIXED:
            time.sleep(0.02)
            self._sse_write(piece)

    def h_sse_mixed_expected(self):
        self._json(200, _SSE_MIXED_EXPECTED)

    def h_sse_drip(self):
        count = max(0, self._qint("count", 10))
        interval = max(0.0, self._qfloat("interval_ms", 100.0)) / 1000.0
        self._sse_start()
        for i in range(count):
            if i:
                time.sleep(interval)
            self._sse_write(b"data: %d\n\n" % i)

    def h_sse_reset(self):
        after = max(0, self._qint("after", 3))
        self._sse_start()
        for i in range(1, after + 1):
            self._sse_write(b"id: %d\ndata: %d\n\n" % (i, i))
        time.sleep(0.2)  # let the client read the events before the RST discards anything
        self._rst()

    def h_sse_endless(self):
        size = max(0, self._qint("size", 1024))
        event = b"data: " + b"x" * size + b"\n\n"
        block = event * max(1, CHUNK // len(event))
        self._sse_start()
        while True:
            self.wfile.write(block)

    def h_sse_resume(self):
        last = self.headers.get("Last-Event-ID")
        if last is not None:
            try:
                n = int(last.strip())
            except ValueError:
                return self._json(400, {"error": "Last-Event-ID is not an integer",
                                        "last_event_id": last})
            self._sse_start()
            for i in range(n + 1, n + 4):
                self._sse_write(b"id: %d\ndata: %d\n\n" % (i, i))
            return
        self._sse_start()
        self._sse_write(b"retry: 100\n")
        for i in range(1, 4):
            self._sse_write(b"id: %d\ndata: %d\n\n" % (i, i))
        time.sleep(0.2)  # let the client read the events before the RST discards anything
        self._rst()

