#!/usr/bin/env python3
"""NetKit fault server: misbehaving HTTP/1.1 endpoints for integration tests.

Usage: fault_server.py [PORT]   (PORT 0 or omitted: the kernel picks a free port)
The first line on stdout is always "PORT <n>". Binds 127.0.0.1 only. Python stdlib only.

Endpoints (any method unless noted; query parameters in brackets):
  /healthz                         200 "ok"
  /reset-before-headers            reads the request, then RST (SO_LINGER 0) before any response byte
  /reset-after-headers             200 headers with Content-Length 1000, 10 body bytes, then RST
  /truncated                       Content-Length 1000, 100 body bytes, then a normal close (FIN)
  /drip [count=20, interval_ms=100] Content-Length count, one byte ("*") every interval_ms
  /hang                            reads the request and never answers (closes after 120 s, or
                                   as soon as the client goes away)
  /retry-after/seconds [n=1, status=503]  status (503 or 429 ...) with "Retry-After: n"
  /retry-after/date    [n=1, status=503]  same, Retry-After as an HTTP-date at least n s ahead
  /flaky [key, fail=1, status=503] the first `fail` requests for `key` answer `status` with
                                   "Retry-After: 0"; later ones 200 {"key":K,"attempts":count}
  /malformed-json                  200 application/json, body {"a": [1, 2,
  /invalid-utf8                    200 text/plain; charset=utf-8, body b"\\xff\\xfe\\xfa"
  /big-json [mb=50]                200 valid JSON array of ~mb MiB, streamed, exact Content-Length
  /redirect-loop                   302 to itself
  /redirect-other-host             302 to http://localhost:<port>/headers
  /headers                         200 {"headers": {...request headers...}}
  /cache/<key>, /cache/<key>/stats an HTTP cache origin: headers from the query, requests counted
                                   and conditional headers recorded (see cache_origin.py)
  /corrupt-gzip                    200 Content-Encoding: gzip, garbage body
  /cut-chunked                     Transfer-Encoding: chunked, one chunk, then close (no last chunk)
  /auth/token          POST        200 {"token": "fresh-<n>"}, n increments per call
  /auth/protected                  200 {"ok":true,"token":T} if "Authorization: Bearer T" is any
                                   issued token, else 401 {"error":"unauthorized"} (no
                                   WWW-Authenticate header on purpose)
  /auth/refresh-count              200 {"count": n}  (number of /auth/token calls)
  /auth/reset          POST        resets the count and forgets issued tokens
      All /auth/* endpoints take an optional [key=K] namespace so parallel tests do not share state.
  /range/<size> [cut=K]            bytes i % 251 for i in 0..<size; honours "Range: bytes=N-" and
                                   "bytes=N-M" (206 + Content-Range), 416 with
                                   "Content-Range: bytes */size" when N >= size; ETag "range-<size>";
                                   If-Range with another value gives the full 200. cut=K closes the
                                   connection after K body bytes of this response (for resume tests).
  /range-ignored/<size>            same bytes, always 200 with the full body, ignores Range
  /echo                            200 {"method","path","query","headers","body_length","sha256"}
  /status/<n>                      status n with {"status": n} (no body for 204/304/HEAD)
  /redirect-to [url, status=302]   status with "Location: url" (absolute or relative)
  /set-cookies [case=ok, line, redirect]  200 {"case","count"} with the Set-Cookie lines of `case`
                                   written as raw bytes (see _COOKIE_CASES: hostile Domain values,
                                   Secure over http, CR/NUL/controls, 5000-byte and nameless
                                   cookies, 10,000 lines), each case with a harmless "ok=1; Path=/"
                                   last; case=lines sends the `line` parameters (repeatable) as
                                   they are; with redirect=URL the answer is a 302 to URL
  /counter/hit [key]               200 {"count": n}; counts requests per key
  /counter/value [key]             200 {"count": n} without counting
  /counter/slow [key, delay_ms=300] counts like /counter/hit, then answers after delay_ms
  /cut-in-headers                  a status line and one header, then a normal close (no blank line)
  /two-content-lengths             "Content-Length: 5" and "Content-Length: 10", then 10 bytes
  /bad-status-line                 "HTTP/1.1 OK-ish\r\n" (no status code), headers, a body
  /bad-chunked                     Transfer-Encoding: chunked with a chunk size that is not hex
  /empty-reply                     reads the request, then closes without a byte (FIN)
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
  /load [key, fail=0, status=503]  /flaky for load tests: same answers, its own counters, and
                                   each response leaves in one write (the other endpoints send
                                   headers and body separately, which costs ~40 ms per keep-alive
                                   request to Nagle + delayed ACK)
  Server-sent events: 200 "Content-Type: text/event-stream", no Content-Length, the body ends
  when the server closes the connection (TCP_NODELAY, so each write leaves at once).
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

import email.utils
import json
import math
import os
import select
import socket
import struct
import threading
import time
from urllib.parse import parse_qs, urlsplit

from cache_origin import CacheOrigin
from serving import CHUNK, QuietHandler, hash_body, serve_http

_PERIOD = 251
_PATTERN = bytes(range(_PERIOD)) * ((CHUNK // _PERIOD) + 2)

_state_lock = threading.Lock()
_flaky_counts = {}          # key -> attempts
_load_counts = {}           # key -> attempts (/load)
_auth = {}                  # key -> {"count": int, "issued": set}
_counters = {}              # key -> requests (/counter/hit)
_cache_origin = CacheOrigin()  # /cache/<key>
_bombs = {}                 # mb -> gzip bytes (/gzip-bomb)

# /set-cookies: Set-Cookie values a cookie jar must not keep, with one it must keep ("ok=1").
_COOKIE_OK = b"ok=1; Path=/"
_COOKIE_CASES = {
    "ok": [],
    "public-suffix": [b"evil=1; Domain=com; Path=/", b"evil2=1; Domain=.co.uk; Path=/"],
    "other-site": [b"evil=1; Domain=example.com; Path=/", b"evil2=1; Domain=localhost.example; Path=/"],
    "ip-domain": [b"evil=1; Domain=0.0.1; Path=/", b"evil2=1; Domain=.1; Path=/", b"evil3=1; Domain=localhost; Path=/"],
    "secure-over-http": [b"evil=1; Secure; Path=/", b"__Host-evil2=1; Secure; Path=/"],
    "control": [b"evil=1\rX-Injected: 1; Path=/", b"evil2=a\x01b; Path=/", b"evil3=a\x7fb; Path=/"],
    "nul": [b"evil=a\x00b; Path=/"],
    "huge": [b"evil=" + b"v" * 5000 + b"; Path=/"],
    "nameless": [b"=novalue; Path=/", b"noequals; Path=/", b"; Path=/"],
    "flood": [b"f%d=1" % i for i in range(10000)],
}

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


def _gzip_bomb(mb):
    """mb MiB of zeros, gzip-compressed (about 1 KiB per MiB); made once per size."""
    import gzip
    import io
    with _state_lock:
        if mb in _bombs:
            return _bombs[mb]
    out = io.BytesIO()
    zeros = bytes(1 << 20)
    with gzip.GzipFile(fileobj=out, mode="wb", compresslevel=9) as gz:
        for _ in range(mb):
            gz.write(zeros)
    data = out.getvalue()
    with _state_lock:
        _bombs[mb] = data
    return data


def pattern_bytes(start, length):
    """Bytes start..start+length of the sequence i % 251, length <= CHUNK."""
    off = start % _PERIOD
    return _PATTERN[off:off + length]


def _auth_state(key):
    st = _auth.get(key)
    if st is None:
        st = {"count": 0, "issued": set()}
        _auth[key] = st
    return st


class FaultHandler(QuietHandler):
    server_version = "NetKitFault/1.0"

    # ---- helpers -----------------------------------------------------------------------------
    def _send(self, status, body=b"", content_type="application/json", headers=None,
              content_length=None):
        self.send_response(status)
        if content_type:
            self.send_header("Content-Type", content_type)
        for k, v in (headers or {}).items():
            self.send_header(k, v)
        no_body = self.command == "HEAD" or status in (204, 304) or 100 <= status < 200
        if status not in (204, 304) and not (100 <= status < 200):
            self.send_header("Content-Length",
                             str(len(body) if content_length is None else content_length))
        self.end_headers()
        if body and not no_body:
            self.wfile.write(body)

    def _json(self, status, obj, headers=None):
        self._send(status, json.dumps(obj).encode(), "application/json", headers)

    def _rst(self):
        """Abort the connection: SO_LINGER 0 then close the descriptor -> TCP RST."""
        self.close_connection = True
        try:
            self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER,
                                       struct.pack("ii", 1, 0))
        except OSError:
            pass
        try:
            fd = self.connection.detach()   # the makefile()s keep the fd alive otherwise
            os.close(fd)
        except OSError:
            pass

    def _qint(self, name, default):
        try:
            return int(self.query.get(name, [default])[0])
        except (TypeError, ValueError):
            return default

    def _qfloat(self, name, default):
        try:
            return float(self.query.get(name, [default])[0])
        except (TypeError, ValueError):
            return default

    def _qstr(self, name, default=""):
        return self.query.get(name, [default])[0]

    # ---- dispatch ----------------------------------------------------------------------------
    def _dispatch(self):
        split = urlsplit(self.path)
        self.route = split.path
        self.query = parse_qs(split.query, keep_blank_values=True)
        self._headers_sent = False
        try:
            # Always drain the request body so keep-alive stays in sync.
            self.body_length, self.body_sha256 = hash_body(self)
            handler = self._route()
            handler()
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, TimeoutError):
            self.close_connection = True
        except Exception as exc:  # never let one request kill the server
            self.close_connection = True
            try:
                if not getattr(self, "_headers_sent", False):
                    self._json(500, {"error": "fault server exception", "detail": repr(exc)},
                               {"Connection": "close"})
            except Exception:
                pass

    def send_response(self, code, message=None):
        self._headers_sent = True
        super().send_response(code, message)

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _dispatch

    def _route(self):
        p = self.route
        exact = {
            "/healthz": self.h_healthz,
            "/reset-before-headers": self.h_reset_before_headers,
            "/reset-after-headers": self.h_reset_after_headers,
            "/truncated": self.h_truncated,
            "/drip": self.h_drip,
            "/hang": self.h_hang,
            "/retry-after/seconds": self.h_retry_after_seconds,
            "/retry-after/date": self.h_retry_after_date,
            "/flaky": self.h_flaky,
            "/malformed-json": self.h_malformed_json,
            "/invalid-utf8": self.h_invalid_utf8,
            "/big-json": self.h_big_json,
            "/redirect-loop": self.h_redirect_loop,
            "/redirect-other-host": self.h_redirect_other_host,
            "/headers": self.h_headers,
            "/corrupt-gzip": self.h_corrupt_gzip,
            "/cut-chunked": self.h_cut_chunked,
            "/auth/token": self.h_auth_token,
            "/auth/protected": self.h_auth_protected,
            "/auth/refresh-count": self.h_auth_refresh_count,
            "/auth/reset": self.h_auth_reset,
            "/echo": self.h_echo,
            "/load": self.h_load,
            "/redirect-to": self.h_redirect_to,
            "/set-cookies": self.h_set_cookies,
            "/counter/hit": self.h_counter_hit,
            "/counter/value": self.h_counter_value,
            "/counter/slow": self.h_counter_slow,
            "/cut-in-headers": self.h_cut_in_headers,
            "/two-content-lengths": self.h_two_content_lengths,
            "/bad-status-line": self.h_bad_status_line,
            "/bad-chunked": self.h_bad_chunked,
            "/empty-reply": self.h_empty_reply,
            "/endless": self.h_endless,
            "/huge-length": self.h_huge_length,
            "/gzip-bomb": self.h_gzip_bomb,
            "/big-header": self.h_big_header,
            "/interim": self.h_interim,
            "/endless-interim": self.h_endless_interim,
            "/interim-flood": self.h_interim_flood,
            "/endless-headers": self.h_endless_headers,
            "/sse/mixed": self.h_sse_mixed,
            "/sse/mixed-expected": self.h_sse_mixed_expected,
            "/sse/drip": self.h_sse_drip,
            "/sse/reset": self.h_sse_reset,
            "/sse/endless": self.h_sse_endless,
            "/sse/resume": self.h_sse_resume,
        }
        if p in exact:
            return exact[p]
        if p.startswith("/range/"):
            return lambda: self.h_range(p[len("/range/"):], honour=True)
        if p.startswith("/range-ignored/"):
            return lambda: self.h_range(p[len("/range-ignored/"):], honour=False)
        if p.startswith("/status/"):
            return lambda: self.h_status(p[len("/status/"):])
        if (cache := CacheOrigin.route(p)) is not None:
            key, is_stats = cache
            return (lambda: self.h_cache_stats(key)) if is_stats else (lambda: self.h_cache(key))
        return lambda: self._json(404, {"error": "not found", "path": p})

    # ---- endpoints ---------------------------------------------------------------------------
    def h_healthz(self):
        self._send(200, b"ok\n", "text/plain; charset=utf-8")

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

    def _retry_status(self):
        status = self._qint("status", 503)
        return status if 100 <= status <= 599 else 503

    def h_retry_after_seconds(self):
        n = self._qint("n", 1)
        status = self._retry_status()
        self._json(status, {"status": status, "retryAfter": n}, {"Retry-After": str(n)})

    def h_retry_after_date(self):
        n = self._qint("n", 1)
        status = self._retry_status()
        when = math.ceil(time.time()) + n   # whole seconds: at least n s ahead
        date = email.utils.formatdate(when, usegmt=True)
        self._json(status, {"status": status, "retryAfter": date}, {"Retry-After": date})

    def h_flaky(self):
        key = self._qstr("key", "")
        fail = self._qint("fail", 1)
        status = self._retry_status()
        with _state_lock:
            count = _flaky_counts.get(key, 0) + 1
            _flaky_counts[key] = count
        if count <= fail:
            self._json(status, {"key": key, "attempts": count, "status": status},
                       {"Retry-After": "0"})
        else:
            self._json(200, {"key": key, "attempts": count})

    def h_load(self):
        key = self._qstr("key", "")
        fail = self._qint("fail", 0)
        status = self._retry_status()
        with _state_lock:
            count = _load_counts.get(key, 0) + 1
            _load_counts[key] = count
        if count <= fail:
            code, obj, extra = status, {"key": key, "attempts": count, "status": status}, {"Retry-After": "0"}
        else:
            code, obj, extra = 200, {"key": key, "attempts": count}, {}
        body = json.dumps(obj).encode()
        self.send_response(code)
        self.send_header("Content-Type", "application/json")
        for k, v in extra.items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        # Headers and body in one buffer, one sendall (see the endpoint list).
        self._headers_buffer.append(b"\r\n" + (b"" if self.command == "HEAD" else body))
        self.flush_headers()

    def h_malformed_json(self):
        self._send(200, b'{"a": [1, 2,', "application/json")

    def h_invalid_utf8(self):
        self._send(200, b"\xff\xfe\xfa", "text/plain; charset=utf-8")

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

    def h_redirect_loop(self):
        self._json(302, {"location": "/redirect-loop"}, {"Location": "/redirect-loop"})

    def h_redirect_other_host(self):
        port = self.server.server_address[1]
        loc = "http://localhost:%d/headers" % port
        self._json(302, {"location": loc}, {"Location": loc})

    def h_redirect_to(self):
        loc = self._qstr("url", "/headers")
        self._json(self._qint("status", 302), {"location": loc}, {"Location": loc})

    def h_set_cookies(self):
        case = self._qstr("case", "ok")
        if case == "lines":
            lines = [line.encode("utf-8") for line in self.query.get("line", [])]
        elif case in _COOKIE_CASES:
            lines = _COOKIE_CASES[case] + [_COOKIE_OK]
        else:
            self._json(404, {"error": "unknown case", "case": case})
            return
        body = json.dumps({"case": case, "count": len(lines)}).encode()
        redirect = self._qstr("redirect", "")
        head = [b"HTTP/1.1 302 Found" if redirect else b"HTTP/1.1 200 OK",
                b"Content-Type: application/json", b"Content-Length: %d" % len(body)]
        if redirect:
            head.append(b"Location: " + redirect.encode("utf-8"))
        head += [b"Set-Cookie: " + line for line in lines]
        self._raw(b"\r\n".join(head) + b"\r\n\r\n" + body, close=False)

    def h_counter_hit(self):
        key = self._qstr("key", "")
        with _state_lock:
            _counters[key] = _counters.get(key, 0) + 1
            n = _counters[key]
        self._json(200, {"count": n})

    def h_counter_slow(self):
        key = self._qstr("key", "")
        with _state_lock:
            _counters[key] = _counters.get(key, 0) + 1
            n = _counters[key]
        time.sleep(self._qint("delay_ms", 300) / 1000.0)
        self._json(200, {"count": n})

    # ---- HTTP cache origin (scripts/cache_origin.py) ----
    def h_cache(self, key):
        query = {name: values[0] for name, values in self.query.items() if values}
        status, headers, body, content_type = _cache_origin.answer(key, self.command, query, self.headers.get)
        self._send(status, body, content_type, headers)

    def h_cache_stats(self, key):
        self._send(200, _cache_origin.stats(key), "application/json")

    def h_counter_value(self):
        with _state_lock:
            n = _counters.get(self._qstr("key", ""), 0)
        self._json(200, {"count": n})

    def _raw(self, data, close=True):
        """Writes bytes as they are (no status line or headers of http.server's)."""
        self._headers_sent = True
        self.close_connection = close
        self.wfile.write(data)
        self.wfile.flush()

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
                with _state_lock:
                    _counters[key] = sent

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

    def h_headers(self):
        headers = {}
        for k, v in self.headers.items():
            headers[k] = v if k not in headers else headers[k] + ", " + v
        self._json(200, {"headers": headers})

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

    def h_auth_token(self):
        key = self._qstr("key", "")
        with _state_lock:
            st = _auth_state(key)
            st["count"] += 1
            token = "fresh-%d" % st["count"]
            st["issued"].add(token)
        self._json(200, {"token": token})

    def h_auth_protected(self):
        key = self._qstr("key", "")
        auth = self.headers.get("Authorization") or ""
        token = auth[7:].strip() if auth[:7].lower() == "bearer " else None
        with _state_lock:
            ok = token is not None and token in _auth_state(key)["issued"]
        if ok:
            self._json(200, {"ok": True, "token": token})
        else:
            self._json(401, {"error": "unauthorized", "token": token})

    def h_auth_refresh_count(self):
        key = self._qstr("key", "")
        with _state_lock:
            count = _auth_state(key)["count"]
        self._json(200, {"count": count})

    def h_auth_reset(self):
        key = self._qstr("key", "")
        with _state_lock:
            _auth[key] = {"count": 0, "issued": set()}
        self._json(200, {"reset": True, "count": 0})

    def h_echo(self):
        headers = {}
        for k, v in self.headers.items():
            headers[k] = v if k not in headers else headers[k] + ", " + v
        split = urlsplit(self.path)
        self._json(200, {
            "method": self.command,
            "path": self.route,
            "query": split.query,
            "headers": headers,
            "body_length": self.body_length,
            "sha256": self.body_sha256,
        })

    def h_status(self, rest):
        try:
            code = int(rest.strip("/"))
        except ValueError:
            return self._json(400, {"error": "bad status"})
        if not 200 <= code <= 599:
            return self._json(400, {"error": "status must be 200...599"})
        self._json(code, {"status": code})

    def h_range(self, rest, honour):
        try:
            size = int(rest.strip("/"))
            if size < 0:
                raise ValueError
        except ValueError:
            return self._json(400, {"error": "bad size"})
        etag = '"range-%d"' % size
        start, end = 0, size - 1
        status = 200
        rng = self.headers.get("Range")
        if_range = self.headers.get("If-Range")
        if honour and rng and (if_range is None or if_range.strip() == etag):
            spec = rng.strip()
            if spec.startswith("bytes=") and "," not in spec:
                a, _, b = spec[6:].partition("-")
                try:
                    if a.strip() == "":           # suffix range bytes=-N
                        n = int(b)
                        start, end = max(0, size - n), size - 1
                    else:
                        start = int(a)
                        end = int(b) if b.strip() else size - 1
                        end = min(end, size - 1)
                    if start >= size or start > end:
                        return self._send(416, b"", "application/octet-stream",
                                          {"Content-Range": "bytes */%d" % size, "ETag": etag})
                    status = 206
                except ValueError:
                    start, end = 0, size - 1
        length = max(0, end - start + 1)
        cut = self._qint("cut", -1)
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(length))
        self.send_header("ETag", etag)
        if honour:
            self.send_header("Accept-Ranges", "bytes")
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        self.end_headers()
        if self.command == "HEAD":
            return
        sent = 0
        pos = start
        limit = length if cut < 0 else min(length, cut)
        while sent < limit:
            n = min(CHUNK, limit - sent)
            self.wfile.write(pattern_bytes(pos, n))
            pos += n
            sent += n
        if sent < length:
            self.close_connection = True

    # ---- server-sent events ------------------------------------------------------------------
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


def main():
    serve_http(FaultHandler)


if __name__ == "__main__":
    main()
