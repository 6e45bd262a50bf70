"""HTTP/1.1 fault server: redirects, token authentication, and echoes of what the client sent (the
targets redirect and header-leak tests look at).

Endpoints:
  /redirect-loop                   302 to itself
  /redirect-other-host             302 to http://localhost:<port>/headers
  /redirect-to [url, status=302]   status with "Location: url" (absolute or relative)
  /headers                         200 {"headers": {...request headers...}}
  /echo                            200 {"method","path","query","headers","body_length","sha256"}
  /auth/token          POST        200 {"token": "fresh-<n>"}, n increments per call
  /auth/protected                  200 {"ok":true,"token":T} if "Authorization: Bearer T" is any
                                   issued token, else 401 {"error":"unauthorized"} (no
                                   WWW-Authenticate header on purpose)
  /auth/refresh-count              200 {"count": n}  (number of /auth/token calls)
  /auth/reset          POST        resets the count and forgets issued tokens
      All /auth/* endpoints take an optional [key=K] namespace so parallel tests do not share state.
"""

from urllib.parse import urlsplit

from fault import state

_auth = {}                  # key -> {"count": int, "issued": set}


def _auth_state(key):
    st = _auth.get(key)
    if st is None:
        st = {"count": 0, "issued": set()}
        _auth[key] = st
    return st


class RedirectAuthEndpoints:
    ROUTES = {
        "/redirect-loop": "h_redirect_loop",
        "/redirect-other-host": "h_redirect_other_host",
        "/redirect-to": "h_redirect_to",
        "/headers": "h_headers",
        "/echo": "h_echo",
        "/auth/token": "h_auth_token",
        "/auth/protected": "h_auth_protected",
        "/auth/refresh-count": "h_auth_refresh_count",
        "/auth/reset": "h_auth_reset",
    }

    def h_redirect_loop(self):
        self._json(302, {"location": "/redirect-loop"}, {"Location": "/redirect-loop"})

    def h_redirect_other_host(self):
        port = self.server.server_address[1]
        loc = "http://localhost:%d/headers" % port
        self._json(302, {"location": loc}, {"Location": loc})

    def h_redirect_to(self):
        loc = self._qstr("url", "/headers")
        self._json(self._qint("status", 302), {"location": loc}, {"Location": loc})

    def h_headers(self):
        self._json(200, {"headers": self._request_headers()})

    def h_echo(self):
        split = urlsplit(self.path)
        self._json(200, {
            "method": self.command,
            "path": self.route,
            "query": split.query,
            "headers": self._request_headers(),
            "body_length": self.body_length,
            "sha256": self.body_sha256,
        })

    def h_auth_token(self):
        key = self._qstr("key", "")
        with state.lock:
            st = _auth_state(key)
            st["count"] += 1
            token = "fresh-%d" % st["count"]
            st["issued"].add(token)
        self._json(200, {"token": token})

    def h_auth_protected(self):
        key = self._qstr("key", "")
        auth = self.headers.get("Authorization") or ""
        token = auth[7:].strip() if auth[:7].lower() == "bearer " else None
        with state.lock:
            ok = token is not None and token in _auth_state(key)["issued"]
        if ok:
            self._json(200, {"ok": True, "token": token})
        else:
            self._json(401, {"error": "unauthorized", "token": token})

    def h_auth_refresh_count(self):
        key = self._qstr("key", "")
        with state.lock:
            count = _auth_state(key)["count"]
        self._json(200, {"count": count})

    def h_auth_reset(self):
        key = self._qstr("key", "")
        with state.lock:
            _auth[key] = {"count": 0, "issued": set()}
        self._json(200, {"reset": True, "count": 0})
