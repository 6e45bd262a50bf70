#!/usr/bin/env python3
"""NetKit upload sink: reads request bodies without keeping them.

Usage: upload_sink.py [PORT]   (PORT 0 or omitted: the kernel picks a free port)
The first line on stdout is always "PORT <n>". Binds 127.0.0.1 only. Python stdlib only.

Any POST/PUT/PATCH (any path): the body (Content-Length or Transfer-Encoding: chunked) is read in
64 KiB pieces, hashed with SHA-256 and discarded; the answer is 200 application/json
{"bytes": <n>, "sha256": "<hex>"}. "Expect: 100-continue" is honoured.
GET /healthz answers 200 "ok". Other GETs answer 200 {"bytes": 0, "sha256": <sha of empty>}.
"""

import json

from serving import QuietHandler, hash_body, serve_http


class SinkHandler(QuietHandler):
    server_version = "NetKitSink/1.0"

    def _reply(self, status, obj, content_type="application/json"):
        body = obj if isinstance(obj, bytes) else json.dumps(obj).encode()
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(body)

    def _handle(self):
        try:
            if self.command in ("GET", "HEAD") and self.path.split("?", 1)[0] == "/healthz":
                hash_body(self)
                return self._reply(200, b"ok\n", "text/plain; charset=utf-8")
            n, sha = hash_body(self)
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


def main():
    serve_http(SinkHandler)


if __name__ == "__main__":
    main()
