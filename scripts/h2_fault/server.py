"""The HTTP/2 fault server's TCP and TLS side: one thread per connection, ALPN "h2", the routing
table of the endpoint modules, and `main`.

A client that negotiated no ALPN and sends something other than the HTTP/2 preface gets an HTTP/1.1
505.
"""

import socket
import socketserver
import ssl
import sys
import traceback

from serving import serve

from h2_fault import basics, floods, header_blocks, stream_ends
from h2_fault.connection import Close, Connection

ENDPOINT_MODULES = (basics, floods, stream_ends, header_blocks)
WRITE_TIMEOUT = 10          # a blocked write (client not reading) longer than this ends the connection
_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"


def _routes():
    routes = {}
    for module in ENDPOINT_MODULES:
        for path, handler in module.ROUTES.items():
            if path in routes:
                raise ValueError("h2 fault server: %s is routed twice" % path)
            routes[path] = handler
    return routes


ROUTES = _routes()


def route(path):
    """The endpoint serving `path`: the cache origin's, an exact path's, or the 404."""
    return basics.cache_route(path) or ROUTES.get(path, basics.not_found)


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        raw = self.request
        raw.settimeout(WRITE_TIMEOUT)
        try:
            raw.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        except OSError:
            pass
        sock = None
        try:
            sock = self.server.context.wrap_socket(raw, server_side=True)
            first = sock.recv(65536)
            if not first:
                return
            if sock.selected_alpn_protocol() != "h2" and not _PREFACE.startswith(first[:24]):
                body = b"this server speaks HTTP/2 only\n"
                sock.sendall(b"HTTP/1.1 505 HTTP Version Not Supported\r\nContent-Type: text/plain\r\n"
                             b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))
                return
            Connection(sock, route).run(first)
        except (Close, OSError):   # OSError covers ssl.SSLError and the client going away
            pass
        except Exception:          # an h2 surprise: log it, end this connection only
            print("connection failed:\n" + traceback.format_exc(), file=sys.stderr, flush=True)
        finally:
            try:
                (sock or raw).close()
            except OSError:
                pass


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256

    def handle_error(self, request, client_address):
        pass



def main(usage):
    if len(sys.argv) != 4:
        print(usage, file=sys.stderr)
        sys.exit(2)
    port, cert, key = int(sys.argv[1]), sys.argv[2], sys.argv[3]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    context.set_alpn_protocols(["h2"])
    server = Server(("127.0.0.1", port), Handler)
    server.context = context
    serve(server)
