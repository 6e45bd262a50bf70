"""HTTP/1.1 fault server: the HTTP cache origin of scripts/cache_origin.py (the HTTP/2 server has one
of its own).

Endpoints:
  /cache/<key>, /cache/<key>/stats an HTTP cache origin: headers from the query, requests counted
                                   and conditional headers recorded (see cache_origin.py)
"""

from cache_origin import CacheOrigin

_cache_origin = CacheOrigin()  # /cache/<key>


class CacheEndpoints:
    PREFIXES = (("/cache/", "h_cache_route"),)

    def h_cache_route(self, rest):
        key, is_stats = CacheOrigin.route(self.route)
        if is_stats:
            self.h_cache_stats(key)
        else:
            self.h_cache(key)

    def h_cache(self, key):
        query = {name: values[0] for name, values in self.query.items() if values}
        status, headers, body, content_type = _cache_origin.answer(key, self.command, query, self.headers.get)
        self._send(status, body, content_type, headers)

    def h_cache_stats(self, key):
        self._send(200, _cache_origin.stats(key), "application/json")
