#!/usr/bin/env python3
"""NetKit fault server: misbehaving HTTP/1.1 endpoints for integration tests.

Usage: fault_server.py [PORT]   (PORT 0 or omitted: the kernel picks a free port)
       fault_server.py --endpoints   prints every endpoint (the docstrings below), then exits
The first line on stdout is always "PORT <n>". Binds 127.0.0.1 only. Python stdlib only.

Endpoints (any method unless noted; query parameters in brackets) live in scripts/fault/, one
module per group, each listing the endpoints it serves in its docstring:
  handler.py         the core (dispatch, helpers, routing): /healthz, 404 for anything else
  framing.py         resets, truncated, cut and malformed responses, /drip, /hang
  limits.py          huge and endless bodies and headers, a gzip bomb, interim floods, CONNECT
  retries.py         Retry-After, /flaky, /load, /counter/*, /status/<n>
  redirects_auth.py  redirects, /headers, /echo, bearer tokens (/auth/*)
  cookies.py         hostile Set-Cookie lines (/set-cookies)
  sse.py             server-sent events (/sse/*)
  cache.py           the HTTP cache origin (/cache/<key>, see cache_origin.py)
  ranges.py          byte ranges and resume (/range/<size>, /range-ignored/<size>)
A new endpoint goes into the group it belongs to (or a new module added to FaultHandler below),
with its line in that module's docstring; `--endpoints` fails when a route has no line.
"""

import sys

from fault.cache import CacheEndpoints
from fault.cookies import CookieEndpoints
from fault.framing import FramingEndpoints
from fault.handler import FaultHandlerBase
from fault.limits import LimitsEndpoints
from fault.ranges import RangeEndpoints
from fault.redirects_auth import RedirectAuthEndpoints
from fault.retries import RetryEndpoints
from fault.sse import SSEEndpoints
from serving import serve_http


class FaultHandler(FramingEndpoints, LimitsEndpoints, RetryEndpoints, RedirectAuthEndpoints,
                   CookieEndpoints, SSEEndpoints, CacheEndpoints, RangeEndpoints, FaultHandlerBase):
    """Every endpoint group on the core handler."""


def print_endpoints():
    """Prints the docstring of every endpoint module; fails (1) when a route is missing from its
    module's docstring."""
    print(__doc__)
    missing = []
    groups = [FaultHandlerBase] + [b for b in FaultHandler.__bases__ if b is not FaultHandlerBase]
    for klass in groups:
        doc = sys.modules[klass.__module__].__doc__ or ""
        print("---- scripts/%s.py\n%s" % (klass.__module__.replace(".", "/"), doc))
        paths = list(vars(klass).get("ROUTES", {})) + [p for p, _ in vars(klass).get("PREFIXES", ())]
        missing += ["%s (%s)" % (p, klass.__module__) for p in paths if p not in doc]
    if missing:
        print("fault_server.py: routes without a docstring line: " + ", ".join(missing), file=sys.stderr)
        return 1
    return 0


def main():
    if sys.argv[1:] == ["--endpoints"]:
        sys.exit(print_endpoints())
    serve_http(FaultHandler)


if __name__ == "__main__":
    main()
