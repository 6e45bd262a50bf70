#!/usr/bin/env python3
"""NetKit HTTP/2 fault server: misbehaving HTTP/2 (TLS, ALPN "h2") endpoints for integration tests.

Usage: h2_fault_server.py PORT CERT KEY
  PORT 0: the kernel picks a free port. CERT/KEY: the server's certificate and key (PEM).
       h2_fault_server.py --endpoints   prints every endpoint (the docstrings below), then exits
The first line on stdout is always "PORT <n>". Binds 127.0.0.1 only. Needs the `h2` package
(python3-h2); one thread per connection, each an h2.connection.H2Connection.

Endpoints (any method; a request body is read and ignored, and the answer starts once the request
has ended; query parameters in brackets).
"No content-length" means the response has none and its body ends with END_STREAM or never.
They live in scripts/h2_fault/, one module per group, each listing the endpoints it serves in its
docstring:
  basics.py          /ok, /slow, 103s (/early-hints, /endless-interim), /headers, /redirect,
                     /set-cookies, the HTTP cache origin (/cache/<key>), 404 for anything else
  floods.py          /flood: frames that carry no body byte, as fast as the client reads
  stream_ends.py     RST_STREAM, GOAWAY or a close after partial data; oversized or misplaced DATA
  header_blocks.py   malformed header blocks, an HPACK bomb, a huge header in CONTINUATIONs
The connection core (raw frames, the h2 state machine, endpoint tasks) is connection.py; the
TLS/ALPN server and the routing table are server.py. A new endpoint goes into the group it belongs
to (a new module is added to server.ENDPOINT_MODULES), with its line in that module's docstring;
`--endpoints` fails when a route has no line.
"""

import sys

from h2_fault import connection, server


def print_endpoints():
    """Prints the docstring of the core and of every endpoint module; fails (1) when a route is
    missing from its module's docstring."""
    print(__doc__)
    missing = []
    for module in (connection, server) + server.ENDPOINT_MODULES:
        doc = module.__doc__ or ""
        print("---- scripts/%s.py\n%s" % (module.__name__.replace(".", "/"), doc))
        if module in server.ENDPOINT_MODULES:
            missing += ["%s (%s)" % (p, module.__name__) for p in module.ROUTES if p not in doc]
    if missing:
        print("h2_fault_server.py: routes without a docstring line: " + ", ".join(missing), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--endpoints"]:
        sys.exit(print_endpoints())
    server.main(__doc__)
