"""HTTP/1.1 fault server: what retry, backoff, deduplication and load tests need (Retry-After in
both forms, keys that fail a given number of times, request counters, any status).

Endpoints:
  /retry-after/seconds [n=1, status=503]  status (503 or 429 ...) with "Retry-After: n"
  /retry-after/date    [n=1, status=503]  same, Retry-After as an HTTP-date at least n s ahead
  /flaky [key, fail=1, status=503] the first `fail` requests for `key` answer `status` with
                                   "Retry-After: 0"; later ones 200 {"key":K,"attempts":count}
  /load [key, fail=0, status=503]  /flaky for load tests: same answers, its own counters, and
                                   each response leaves in one write (the other endpoints send
                                   headers and body separately, which costs ~40 ms per keep-alive
                                   request to Nagle + delayed ACK)
  /counter/hit [key]               200 {"count": n}; counts requests per key
  /counter/value [key]             200 {"count": n} without counting
  /counter/slow [key, delay_ms=300] counts like /counter/hit, then answers after delay_ms
  /status/<n>                      status n with {"status": n} (no body for 204/304/HEAD)
"""

import email.utils
import json
import math
import time

from fault import state

_flaky_counts = {}          # key -> attempts
_load_counts = {}           # key -> attempts (/load)


class RetryEndpoints:
    ROUTES = {
        "/retry-after/seconds": "h_retry_after_seconds",
        "/retry-after/date": "h_retry_after_date",
        "/flaky": "h_flaky",
        "/load": "h_load",
        "/counter/hit": "h_counter_hit",
        "/counter/value": "h_counter_value",
        "/counter/slow": "h_counter_slow",
    }
    PREFIXES = (("/status/", "h_status"),)

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
        with state.lock:
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
        with state.lock:
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

    def h_counter_hit(self):
        key = self._qstr("key", "")
        with state.lock:
            state.counters[key] = state.counters.get(key, 0) + 1
            n = state.counters[key]
        self._json(200, {"count": n})

    def h_counter_value(self):
        with state.lock:
            n = state.counters.get(self._qstr("key", ""), 0)
        self._json(200, {"count": n})

    def h_counter_slow(self):
        key = self._qstr("key", "")
        with state.lock:
            state.counters[key] = state.counters.get(key, 0) + 1
            n = state.counters[key]
        time.sleep(self._qint("delay_ms", 300) / 1000.0)
        self._json(200, {"count": n})

    def h_status(self, rest):
        try:
            code = int(rest.strip("/"))
        except ValueError:
            return self._json(400, {"error": "bad status"})
        if not 200 <= code <= 599:
            return self._json(400, {"error": "status must be 200...599"})
        self._json(code, {"status": code})
