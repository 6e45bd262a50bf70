"""The HTTP/1.1 fault server's core: the request handler every endpoint group extends (helpers to
answer, reset or write raw bytes, query parameters), the dispatch, and the routing table built from
the groups' ROUTES and PREFIXES.

Endpoints served here:
  /healthz                         200 "ok"
  anything else                    404 {"error": "not found", "path": P}
"""

import json
import os
import socket
import struct
from urllib.parse import parse_qs, urlsplit

from serving import QuietHandler, hash_body


class FaultHandlerBase(QuietHandler):
    """The core every endpoint group (a mixin class) extends. A group declares
    `ROUTES = {"/path": "method_name"}` (exact paths) and optionally
    `PREFIXES = (("/prefix/", "method_name"), ...)` (the method gets the rest of the path); exact
    paths win over prefixes. A path declared twice is an error when the handler class is made."""

    server_version = "NetKitFault/1.0"
    ROUTES = {"/healthz": "h_healthz"}

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        exact, prefixes = {}, []
        for klass in reversed(cls.__mro__):
            for path, name in vars(klass).get("ROUTES", {}).items():
                if path in exact and exact[path] != name:
                    raise ValueError("fault server: %s is routed twice (%s, %s)" % (path, exact[path], name))
                exact[path] = name
            for prefix, name in vars(klass).get("PREFIXES", ()):
                if (prefix, name) not in prefixes:
                    prefixes.append((prefix, name))
        cls._exact_routes, cls._prefix_routes = exact, tuple(prefixes)

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

    def _raw(self, data, close=True):
        """Writes bytes as they are (no status line or headers of http.server's)."""
        self._headers_sent = True
        self.close_connection = close
        self.wfile.write(data)
        self.wfile.flush()

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

    def _request_headers(self):
        """The request's headers as a dict, repeated names joined with ", "."""
        headers = {}
        for k, v in self.headers.items():
            headers[k] = v if k not in headers else headers[k] + ", " + v
        return headers

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
        name = self._exact_routes.get(p)
        if name is not None:
            return getattr(self, name)
        for prefix, name in self._prefix_routes:
            if p.startswith(prefix):
                method = getattr(self, name)
                return lambda: method(p[len(prefix):])
        return self._not_found

    def _not_found(self):
        self._json(404, {"error": "not found", "path": self.route})

    # ---- endpoints ---------------------------------------------------------------------------
    def h_healthz(self):
        self._send(200, b"ok\n", "text/plain; charset=utf-8")
