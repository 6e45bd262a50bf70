"""The HTTP cache origin both fault servers serve (HTTP/1.1 and HTTP/2) at /cache/<key>: response
headers chosen per request by the query, requests counted and their conditional headers recorded
per key, for the `.http` cache policy's live tests.

  /cache/<key>?cc=&expires=&etag=&last_modified=&age=&status=&then_status=
    cc: Cache-Control; expires: seconds from now (negative: past) or a raw value; etag: sent as
    ETag; last_modified: seconds ago; age: Age; status: for a full response (default 200);
    then_status: the status of every full response after the first (an origin that fails later).
    Answers 304 when If-None-Match matches the ETag (weak comparison) or, without it,
    If-Modified-Since equals Last-Modified. The body is {"key", "count"}.
  /cache/<key>/stats
    {"count", "methods", "conditionals": [{"if-none-match", "if-modified-since"}]}"""

import email.utils
import json
import threading
import time


class CacheOrigin:
    def __init__(self):
        self._lock = threading.Lock()
        self._keys = {}   # key -> {"count", "methods", "conditionals"}

    @staticmethod
    def route(path):
        """(key, is_stats) for a /cache/ path, or None."""
        if not path.startswith("/cache/"):
            return None
        rest = path[len("/cache/"):]
        if rest.endswith("/stats"):
            return rest[:-len("/stats")], True
        return rest, False

    def answer(self, key, method, query, header):
        """(status, headers, body, content_type) for one request. `query`: name -> first value;
        `header(name)`: the request header's value or None."""
        now = time.time()
        etag = query.get("etag", "")
        last_modified = ""
        if "last_modified" in query:
            last_modified = email.utils.formatdate(now - _int(query["last_modified"], 0), usegmt=True)
        inm, ims = header("If-None-Match"), header("If-Modified-Since")
        with self._lock:
            st = self._keys.setdefault(key, {"count": 0, "methods": [], "conditionals": []})
            st["count"] += 1
            st["methods"].append(method)
            st["conditionals"].append({"if-none-match": inm, "if-modified-since": ims})
            n = st["count"]
        headers = {"Date": email.utils.formatdate(now, usegmt=True)}
        if "cc" in query:
            headers["Cache-Control"] = query["cc"]
        if "expires" in query:
            try:
                headers["Expires"] = email.utils.formatdate(now + int(query["expires"]), usegmt=True)
            except ValueError:
                headers["Expires"] = query["expires"]
        if etag:
            headers["ETag"] = etag
        if last_modified:
            headers["Last-Modified"] = last_modified
        if "age" in query:
            headers["Age"] = query["age"]
        if method in ("GET", "HEAD"):
            def opaque(tag):
                return tag.strip()[2:] if tag.strip().startswith("W/") else tag.strip()
            if inm is not None and etag:
                if any(opaque(t) == opaque(etag) for t in inm.split(",")):
                    return 304, headers, b"", None
            elif ims is not None and last_modified and ims == last_modified:
                return 304, headers, b"", None
        status = _int(query.get("status"), 200)
        if n > 1 and "then_status" in query:
            status = _int(query["then_status"], status)
        return status, headers, json.dumps({"key": key, "count": n}).encode(), "application/json"

    def stats(self, key):
        """The /stats body for `key`."""
        with self._lock:
            st = self._keys.get(key, {"count": 0, "methods": [], "conditionals": []})
            return json.dumps({"count": st["count"], "methods": list(st["methods"]),
                               "conditionals": list(st["conditionals"])}).encode()


def _int(value, default):
    try:
        return int(value)
    except (TypeError, ValueError):
        return default
