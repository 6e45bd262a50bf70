"""What the test server scripts share: saying the port and serving until stopped
(`scripts/servers.sh` reads the first stdout line, "PORT <n>"), a quiet HTTP/1.1 handler and a
loopback HTTP server for the http.server-based ones, and reading a request body in pieces
(Content-Length or chunked) without keeping it."""

import hashlib
import sys
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

CHUNK = 64 * 1024


def serve(server):
    print("PORT %d" % server.server_address[1], flush=True)
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()


def serve_http(handler_class):
    """Binds a LoopbackHTTPServer on 127.0.0.1 (port: argv[1], or 0 for the kernel's choice) and
    serves it."""
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    serve(LoopbackHTTPServer(("127.0.0.1", port), handler_class))


class QuietHandler(BaseHTTPRequestHandler):
    """HTTP/1.1, `Server:` is just `server_version`, and nothing is logged."""

    protocol_version = "HTTP/1.1"

    def version_string(self):
        return self.server_version

    def log_message(self, format, *args):  # noqa: A002
        pass

    def log_error(self, format, *args):  # noqa: A002
        pass


class LoopbackHTTPServer(ThreadingHTTPServer):
    """A thread per connection; a client that goes away (any OSError) is not an error."""

    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256

    def handle_error(self, request, client_address):
        if isinstance(sys.exc_info()[1], OSError):
            return
        super().handle_error(request, client_address)


def body_pieces(handler):
    """The request body of `handler` in pieces of at most CHUNK bytes: Content-Length or chunked
    (trailers skipped). Raises ConnectionError when the client stops early."""
    te = (handler.headers.get("Transfer-Encoding") or "").lower()
    if "chunked" in te:
        while True:
            line = handler.rfile.readline(65537)
            if not line:
                raise ConnectionError("eof in chunk size")
            size = int(line.split(b";", 1)[0].strip() or b"0", 16)
            if size == 0:
                while True:  # optional trailers, then the empty line
                    t = handler.rfile.readline(65537)
                    if not t or t in (b"\r\n", b"\n"):
                        break
                return
            yield from _pieces(handler, size, "eof in chunk")
            handler.rfile.readline(65537)  # CRLF closing the chunk
    else:
        yield from _pieces(handler, int(handler.headers.get("Content-Length") or 0), "eof in body")


def _pieces(handler, remaining, eof_message):
    while remaining > 0:
        data = handler.rfile.read(min(CHUNK, remaining))
        if not data:
            raise ConnectionError(eof_message)
        remaining -= len(data)
        yield data


def hash_body(handler):
    """Reads and discards the request body; returns (byte count, SHA-256 hex)."""
    digest = hashlib.sha256()
    n = 0
    for data in body_pieces(handler):
        digest.update(data)
        n += len(data)
    return n, digest.hexdigest()
