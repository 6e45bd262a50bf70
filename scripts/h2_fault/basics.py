"""HTTP/2 fault server: well-formed answers (a quick and a slow one, interim responses, the
request's headers, a redirect, cookies, the HTTP cache origin) and the 404 for anything else.

Endpoints:
  /ok                              200 application/json, content-length 11, {"ok":true}
  /slow [ms=1000]                  the same after ms milliseconds (other streams and connections
                                   go on meanwhile)
  /early-hints                     103 with "link: </style.css>; rel=preload", then the /ok answer
  /endless-interim                 103 every 10 ms for ever (until the client goes), never a final
                                   response
  /headers                         200 {"headers": {...}}: the request's header fields as received
  /cache/<key>, /cache/<key>/stats the HTTP cache origin of cache_origin.py (state of its own)
  /redirect?to=URL                 302 to URL
  /set-cookies [line...]           200 {"count": n} with one set-cookie field per `line`, as given
  anything else                    404 text/plain "not found"
"""

import json

from cache_origin import CacheOrigin

from h2_fault.connection import qint

OK_BODY = b'{"ok":true}'


def not_found(c, sid, q):
    c.respond(sid, 404, b"not found", "text/plain")


def h_ok(c, sid, q):
    c.respond(sid, 200, OK_BODY)


def h_slow(c, sid, q):
    yield max(0, qint(q, "ms", 1000)) / 1000.0
    c.respond(sid, 200, OK_BODY)


def h_early_hints(c, sid, q):
    c.h2.send_headers(sid, [(":status", "103"), ("link", "</style.css>; rel=preload")])
    c.flush()
    c.respond(sid, 200, OK_BODY)


def h_endless_interim(c, sid, q):
    while True:
        c.h2.send_headers(sid, [(":status", "103"), ("link", "</style.css>; rel=preload")])
        c.flush()
        yield 0.01


def h_headers(c, sid, q):
    """200 {"headers": {name: value}}: the request's regular header fields as received."""
    fields = {}
    for name, value in c.request_headers:
        name = name.decode("latin-1") if isinstance(name, bytes) else name
        value = value.decode("latin-1") if isinstance(value, bytes) else value
        if not name.startswith(":"):
            fields[name] = value if name not in fields else fields[name] + ", " + value
    c.respond(sid, 200, json.dumps({"headers": fields}).encode())


def h_redirect(c, sid, q):
    """302 to the URL in `to`."""
    location = q.get("to", ["/ok"])[0]
    c.h2.send_headers(sid, [(":status", "302"), ("location", location), ("content-length", "0")], end_stream=True)
    c.flush()


def h_set_cookies(c, sid, q):
    """200 with one set-cookie field per `line` query value (commas and quotes kept as given)."""
    lines = q.get("line", [])
    body = json.dumps({"count": len(lines)}).encode()
    fields = [(":status", "200"), ("content-type", "application/json"), ("content-length", str(len(body)))]
    fields += [("set-cookie", line) for line in lines]
    c.h2.send_headers(sid, fields)
    c.h2.send_data(sid, body, end_stream=True)
    c.flush()


_cache_origin = CacheOrigin()


def _cache_handler(key, is_stats):
    def handle(c, sid, q):
        if is_stats:
            return c.respond(sid, 200, _cache_origin.stats(key))
        query = {name: values[0] for name, values in q.items() if values}
        status, headers, body, content_type = _cache_origin.answer(key, c.method, query, c.header)
        c.respond_with(sid, status, headers, body, content_type)
    return handle



def cache_route(path):
    """The endpoint of a /cache/ path, or None."""
    if (cache := CacheOrigin.route(path)) is not None:
        return _cache_handler(*cache)
    return None


ROUTES = {
    "/ok": h_ok,
    "/slow": h_slow,
    "/early-hints": h_early_hints,
    "/endless-interim": h_endless_interim,
    "/headers": h_headers,
    "/redirect": h_redirect,
    "/set-cookies": h_set_cookies,
}
