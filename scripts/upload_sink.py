#!/usr/bin/env python3
"""NetKit upload sink: reads request bodies without keeping them.

Usage: upload_sink.py [PORT]   (PORT 0 or omitted: the kernel picks a free port)
The first line on stdout is always "PORT <n>". Binds 127.0.0.1 only. Python stdlib only.

Any POST/PUT/PATCH (any path): the body (Content-Length or Transfer-Encoding: chunked) is read in
64 KiB pieces, hashed with SHA-256 and discarded; the answer is 200 application/json
{"bytes": <n>, "sha256": "<hex>"}. "Expect: 100-continue" is honoured.
GET /healthz answers 200 "ok". Other GETs answer 200 {"bytes": 0, "sha256": <sha of empty>}.
"""

import hashlib
import json
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from serving import serve

CHUNK = 64 * 1024


class SinkHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "NetKitSink/1.0"

    def version_string(self):
        return self.server_version

    def log_message(self, format, *args):  # noqa: A002
        pass

    def log_error(self, format, *args):  # noqa: A002
        pass

    def _reply(self, status, obj, content_type="application/json"):
        body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _read_body(self):
        digest = hashlib.sha256()
        total = 0
        te = (self.headers.get("Transfer-Encoding") or "").lower()
        if "chunked" in te:
            while True:
                line = self.rfile.readline(65537)
                if not line:
                    raise ConnectionError("eof in chunk size")
                size = int(line.split(b";", 1)[0].strip() or b"0", 16)
                if size == 0:
                    while True:  # optional trailers, then the empty line
                        t = self.rfile.readline(65537)
                        if not t or t in (b"\r\n", b"\n"):
                            break
                    break
                remaining = size
                while remaining > 0:
                    data = self.rfile.read(min(CHUNK, remaining))
                    if not data:
                        raise ConnectionError("eof in chunk data")
                    digest.update(data)
                    total += len(data)
                    remaining -= len(data)
                self.rfile.readline(65537)  # CRLF closing the chunk
        else:
            remaining = int(self.headers.get("Content-Length") or 0)
            while remaining > 0:
                data = self.rfile.read(min(CHUNK, remaining))
                if not data:
                    raise ConnectionError("eof in body")
                digest.update(data)
                total += len(data)
                remaining -= len(data)
        return total, digest.hexdigest()

    def _handle(self):
        try:
            if self.command in ("GET", "HEAD") and self.path.split("?", 1)[0] == "/healthz":
                self._read_body()
                return self._reply(200, b"ok\n", "text/plain; charset=utf-8")
            n, sha = self._read_body()
            self._reply(200, {"bytes": n, "sha256": sha})
        except (BrokenPipeError, ConnectionResetError, ConnectionAbortedError, ConnectionError,
                TimeoutError):
            self.close_connection = True
        except Exception as exc:  # never let one request kill the server
            self.close_connection = True
            try:
                self._reply(400, {"error": repr(exc)})
            except Exception:
                pass

    do_POST = do_PUT = do_PATCH = do_GET = do_HEAD = do_DELETE = _handle


class SinkServer(ThreadingHTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handle_error(request, client_address)


def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = SinkServer(("127.0.0.1", port), SinkHandler)
    serve(server)


if __name__ == "__main__":
    main()
