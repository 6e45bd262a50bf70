"""HTTP/1.1 fault server: broken framing and broken connections (resets, short and cut bodies,
malformed status lines, headers and chunking, bodies that do not decode).

Endpoints:
  /reset-before-headers            reads the request, then RST (SO_LINGER 0) before any response byte
  /reset-after-headers             200 headers with Content-Length 1000, 10 body bytes, then RST
  /truncated                       Content-Length 1000, 100 body bytes, then a normal close (FIN)
  /drip [count=20, interval_ms=100] Content-Length count, one byte ("*") every interval_ms
  /hang                            reads the request and never answers (closes after 120 s, or
                                   as soon as the client goes away)
  /malformed-json                  200 application/json, body {"a": [1, 2,
  /invalid-utf8                    200 text/plain; charset=utf-8, body b"\\xff\\xfe\\xfa"
  /corrupt-gzip                    200 Content-Encoding: gzip, garbage body
  /cut-chunked                     Transfer-Encoding: chunked, one chunk, then close (no last chunk)
  /cut-in-headers                  a status line and one header, then a normal close (no blank line)
  /two-content-lengths             "Content-Length: 5" and "Content-Length: 10", then 10 bytes
  /bad-status-line                 "HTTP/1.1 OK-ish\\r\\n" (no status code), headers, a body
  /bad-chunked                     Transfer-Encoding: chunked with a chunk size that is not hex
  /empty-reply                     reads the request, then closes without a byte (FIN)
"""

import select
import time


class FramingEndpoints:
    ROUTES = {
        "/reset-before-headers": "h_reset_before_headers",
        "/reset-after-headers": "h_reset_after_headers",
        "/truncated": "h_truncated",
        "/drip": "h_drip",
        "/hang": "h_hang",
        "/malformed-json": "h_malformed_json",
        "/invalid-utf8": "h_invalid_utf8",
        "/corrupt-gzip": "h_corrupt_gzip",
        "/cut-chunked": "h_cut_chunked",
        "/cut-in-headers": "h_cut_in_headers",
        "/two-content-lengths": "h_two_content_lengths",
        "/bad-status-line": "h_bad_status_line",
        "/bad-chunked": "h_bad_chunked",
        "/empty-reply": "h_empty_reply",
    }

    def h_reset_before_headers(self):
        self._rst()

    def h_reset_after_headers(self):
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", "1000")
        self.end_headers()
        self.wfile.write(b"0123456789")
        time.sleep(0.2)  # let the client read the headers before the RST discards anything
        self._rst()

    def h_truncated(self):
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", "1000")
        self.end_headers()
        self.wfile.write(b"x" * 100)

    def h_drip(self):
        count = max(0, self._qint("count", 20))
        interval = max(0.0, self._qfloat("interval_ms", 100.0)) / 1000.0
        self.send_response(200)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(count))
        self.end_headers()
        for i in range(count):
            if i:
                time.sleep(interval)
            self.wfile.write(b"*")

    def h_hang(self):
        self.close_connection = True
        deadline = time.monotonic() + 120.0
        sock = self.connection
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                r, _, _ = select.select([sock], [], [], min(left, 1.0))
                if r:
                    data = sock.recv(65536)
                    if not data:   # client went away
                        return
            except (OSError, ValueError):
                return

    def h_malformed_json(self):
        self._send(200, b'{"a": [1, 2,', "application/json")

    def h_invalid_utf8(self):
        self._send(200, b"\xff\xfe\xfa", "text/plain; charset=utf-8")

    def h_corrupt_gzip(self):
        body = b"\x1f\x8b\x08\x00" + b"this is definitely not deflate data \x00\xff\x13\x37" * 8
        self._send(200, body, "application/json", {"Content-Encoding": "gzip"})

    def h_cut_chunked(self):
        self.close_connection = True
        self.send_response(200)
        self.send_header("Content-Type", "text/plain; charset=utf-8")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        chunk = b"first chunk of a body that never ends\n"
        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
        # no terminating 0-size chunk; the connection closes after return

    def h_cut_in_headers(self):
        self._raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n")

    def h_two_content_lengths(self):
        self._raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n"
                  b"Content-Length: 10\r\nConnection: close\r\n\r\n0123456789")

    def h_bad_status_line(self):
        self._raw(b"HTTP/1.1 OK-ish\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n"
                  b"Connection: close\r\n\r\nok")

    def h_bad_chunked(self):
        self._raw(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n"
                  b"zz\r\nnot a chunk\r\n0\r\n\r\n")

    def h_empty_reply(self):
        self._raw(b"")
