#!/usr/bin/env python3
"""NetKit intercepting proxy: a man in the middle with a certificate from a CA the client trusts.

Usage: intercepting_proxy.py PORT CERT KEY CA
  PORT 0: the kernel picks a free port. The first line on stdout is always "PORT <n>".
  CERT/KEY: the certificate (and key, PEM) it shows for every host: one the client trusts.
  CA: the CA whose client certificates it accepts (PEM).
Binds 127.0.0.1 only and never connects anywhere. Python standard library only.

CONNECT to any host:port is answered "200 Connection established"; the proxy then terminates
TLS itself, asks for a client certificate (ssl.CERT_OPTIONAL) and, when the handshake completes,
answers any request with 200 text/plain "impostor". It counts what it saw:
  GET /status  200 application/json {"tunnels": n, "handshakes": n, "client_certificates": n}
    tunnels: CONNECTs accepted; handshakes: TLS handshakes completed; client_certificates:
    completed handshakes in which the client presented a certificate. The answer waits until no
    tunnel is still in its handshake or exchange (at most 10 s), so a client that has just given
    up is counted.
"""

import json
import ssl
import sys
import threading

from serving import LoopbackHTTPServer, QuietHandler, serve

TIMEOUT = 10.0


class Counts:
    """The counters and the number of tunnels still being served, under one condition."""

    def __init__(self):
        self.condition = threading.Condition()
        self.values = {"tunnels": 0, "handshakes": 0, "client_certificates": 0}
        self.busy = 0

    def begin(self):
        with self.condition:
            self.values["tunnels"] += 1
            self.busy += 1

    def add(self, key):
        with self.condition:
            self.values[key] += 1

    def end(self):
        with self.condition:
            self.busy -= 1
            self.condition.notify_all()

    def settled(self):
        with self.condition:
            self.condition.wait_for(lambda: self.busy == 0, timeout=TIMEOUT)
            return dict(self.values)


class Handler(QuietHandler):
    server_version = "intercepting-proxy"

    def do_CONNECT(self):  # noqa: N802
        counts = self.server.counts
        counts.begin()
        try:
            self.send_response(200, "Connection established")
            self.end_headers()
            self.wfile.flush()
            self.close_connection = True
            self.connection.settimeout(TIMEOUT)
            tls = self.server.context.wrap_socket(self.connection, server_side=True, do_handshake_on_connect=False)
            try:
                tls.do_handshake()
            except (ssl.SSLError, OSError) as error:
                print(f"handshake ended: {error}", file=sys.stderr, flush=True)
                return
            counts.add("handshakes")
            if tls.getpeercert(binary_form=True):
                counts.add("client_certificates")
            self.answer(tls)
        finally:
            counts.end()

    @staticmethod
    def answer(tls):
        """Reads one request head and answers it as the impostor; the client may have gone."""
        try:
            head = b""
            while b"\r\n\r\n" not in head and len(head) < 65536:
                piece = tls.recv(4096)
                if not piece:
                    return
                head += piece
            body = b"impostor"
            tls.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nConnection: close\r\n"
                        b"Content-Length: %d\r\n\r\n%s" % (len(body), body))
            tls.unwrap()
        except (ssl.SSLError, OSError):
            pass

    def do_GET(self):  # noqa: N802
        if self.path.split("?", 1)[0] != "/status":
            self.send_error(404)
            return
        body = json.dumps(self.server.counts.settled()).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


def main():
    port, cert, key, ca = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    context.load_verify_locations(ca)
    context.verify_mode = ssl.CERT_OPTIONAL
    server = LoopbackHTTPServer(("127.0.0.1", port), Handler)
    server.context = context
    server.counts = Counts()
    serve(server)


if __name__ == "__main__":
    main()
