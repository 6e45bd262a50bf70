"""HTTP/1.1 fault server: answers that test a client's limits (huge and endless bodies, a gzip bomb,
huge or endless headers, endless interim responses, a hostile CONNECT proxy).

Endpoints:
  /big-json [mb=50]                200 valid JSON array of ~mb MiB, streamed, exact Content-Length
  /endless [seconds]               200 chunked, 64 KiB chunks for ever (until the client goes);
                                   with seconds, the connection closes after that long at most (a
                                   client that stops reading slowly still sees the end)
  /huge-length [mb=1024, key]      Content-Length mb MiB, then streams that many bytes; with key,
                                   /counter/value?key= tells how many bytes the client took
  /gzip-bomb [mb=1024]             Content-Encoding: gzip; about mb/1000 MiB that inflate to mb MiB
  /big-header [kb=1024]            one header line of kb KiB, then a small body
  /interim [count=3]               count unasked-for "100 Continue" heads and a "103 Early Hints",
                                   then 200 {"ok":true}
  /endless-interim                 "100 Continue" every 10 ms, never a final response
  /interim-flood                   "100 Continue" heads as fast as the client reads, never a final
                                   response (until the client goes)
  /endless-headers                 a 200 status line, then 100-byte header lines as fast as the
                                   client reads, never the blank line (until the client goes)
  CONNECT host:port                a hostile proxy: "200 Connection established", then header
                                   lines for ever (use the server as an HTTP proxy)
"""

import gzip
import io
import time

from serving import CHUNK

from fault import state

_bombs = {}                 # mb -> gzip bytes (/gzip-bomb)


def _gzip_bomb(mb):
    """mb MiB of zeros, gzip-compressed (about 1 KiB per MiB); made once per size."""
    with state.lock:
        if mb in _bombs:
            return _bombs[mb]
    out = io.BytesIO()
    zeros = bytes(1 << 20)
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=9) as gz:
        for _ in range(mb):
            gz.write(zeros)
    data = out.getvalue()
    with state.lock:
        _bombs[mb] = data
    return data


class LimitsEndpoints:
    ROUTES = {
        "/big-json": "h_big_json",
        "/endless": "h_endless",
        "/huge-length": "h_huge_length",
        "/gzip-bomb": "h_gzip_bomb",
        "/big-header": "h_big_header",
        "/interim": "h_interim",
        "/endless-interim": "h_endless_interim",
        "/interim-flood": "h_interim_flood",
        "/endless-headers": "h_endless_headers",
    }

    def h_big_json(self):
        mb = self._qfloat("mb", 50.0)
        target = max(0, int(mb * 1024 * 1024))
        elem_len = 100
        template = '{"id":%d,"name":"item","active":true,"score":9.5,"pad":"%s"}'
        base = len(template % (0, "")) - 1  # minus one digit of the id
        n = max(1, (target - 2 + 1) // (elem_len + 1))
        if n >= 10 ** (elem_len - base - 1):
            n = 10 ** (elem_len - base - 1) - 1
        total = 2 + n * elem_len + (n - 1)
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(total))
        self.end_headers()
        if self.command == "HEAD":
            return
        buf = [b"["]
        size = 1
        for i in range(n):
            pad = "x" * (elem_len - base - len(str(i)))
            item = (template % (i, pad)).encode()
            if i:
                buf.append(b",")
                size += 1
            buf.append(item)
            size += len(item)
            if size >= CHUNK:
                self.wfile.write(b"".join(buf))
                buf, size = [], 0
        buf.append(b"]")
        self.wfile.write(b"".join(buf))

    def h_endless(self):
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        chunk = b"%x\r\n%s\r\n" % (CHUNK, b"e" * CHUNK)
        seconds = self._qint("seconds", 0)
        ends = time.monotonic() + seconds if seconds > 0 else None
        while ends is None or time.monotonic() < ends:
            self.wfile.write(chunk)

    def h_huge_length(self):
        total = self._qint("mb", 1024) << 20
        self.close_connection = True
        self._send(200, b"", "application/octet-stream", content_length=total)
        block = b"h" * CHUNK
        key = self._qstr("key", "")
        sent = 0
        while sent < total:
            n = min(CHUNK, total - sent)
            self.wfile.write(block[:n])
            sent += n
            if key:
                with state.lock:
                    state.counters[key] = sent

    def h_gzip_bomb(self):
        body = _gzip_bomb(self._qint("mb", 1024))
        self._send(200, body, "application/octet-stream", {"Content-Encoding": "gzip"})

    def h_big_header(self):
        value = "v" * (self._qint("kb", 1024) << 10)
        self._send(200, b"ok", "text/plain", {"X-Big": value})

    def h_interim(self):
        """`count` unasked-for interim responses (100 Continue, then one 103 with a Link), then 200."""
        count = self._qint("count", 3)
        for _ in range(count):
            self.wfile.write(b"HTTP/1.1 100 Continue\r\n\r\n")
        self.wfile.write(b"HTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n\r\n")
        self._raw(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 11\r\n"
                  b"Connection: close\r\n\r\n{\"ok\":true}")

    def h_endless_interim(self):
        """100 Continue every 10 ms, never a final response (until the client goes away)."""
        self._headers_sent = True
        self.close_connection = True
        while True:
            self.wfile.write(b"HTTP/1.1 100 Continue\r\n\r\n")
            self.wfile.flush()
            time.sleep(0.01)

    def h_interim_flood(self):
        """100 Continue heads as fast as the client reads them, never a final response."""
        self._headers_sent = True
        self.close_connection = True
        batch = b"HTTP/1.1 100 Continue\r\n\r\n" * 512
        while True:
            self.wfile.write(batch)

    def h_endless_headers(self):
        """A status line, then header lines as fast as the client reads them, never the end."""
        self._headers_sent = True
        self.close_connection = True
        self.wfile.write(b"HTTP/1.1 200 OK\r\n")
        batch = b"".join(b"X-Filler-%04d: %s\r\n" % (i, b"v" * 80) for i in range(512))
        while True:
            self.wfile.write(batch)

    def do_CONNECT(self):
        """A hostile proxy: accepts the tunnel, then sends header lines for ever."""
        self._headers_sent = True
        self.close_connection = True
        try:
            self.wfile.write(b"HTTP/1.1 200 Connection established\r\n")
            line = b"X-Filler: " + b"f" * 100 + b"\r\n"
            while True:
                self.wfile.write(line * 64)
                self.wfile.flush()
        except OSError:
            pass
