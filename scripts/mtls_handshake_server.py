#!/usr/bin/env python3
"""NetKit strict mutual-TLS server: demands a client certificate inside the TLS handshake.

Usage: mtls_handshake_server.py PORT CERT KEY CA
  PORT 0: the kernel picks a free port. CERT/KEY: the server's certificate and key (PEM).
  CA: the only CA whose client certificates are accepted (PEM).
The first line on stdout is always "PORT <n>". Binds 127.0.0.1 only. Python stdlib only.

Unlike nginx (which completes the handshake and answers 400), this server uses Python's
ssl.CERT_REQUIRED: a client without a certificate, or with one the CA did not sign, fails in the
handshake itself (TLS 1.3: the "certificate required" / "unknown ca" alert reaches the client
on its first read). A client with a good certificate gets, for any request:
  200 text/plain, body = the client certificate's subject, e.g. "CN=client"
"""

import socket
import socketserver
import ssl
import sys


def subject_text(certificate):
    """`CN=client,O=NetKit` from the dict ssl.getpeercert() returns (most specific first)."""
    parts = []
    for rdn in reversed(certificate.get("subject", ())):
        for name, value in rdn:
            short = {"commonName": "CN", "organizationName": "O", "countryName": "C",
                     "organizationalUnitName": "OU"}.get(name, name)
            parts.append(f"{short}={value}")
    return ",".join(parts)


def drain_and_close(sock):
    """Sends FIN after the alert already written, reads what the client still sends, closes."""
    try:
        sock.shutdown(socket.SHUT_WR)
        sock.settimeout(2)
        while sock.recv(4096):
            pass
    except OSError:
        pass
    finally:
        sock.close()


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        raw = self.request
        raw.settimeout(10)
        # A second descriptor for the same socket: the SSL socket closes its own when the
        # handshake fails, and closing the socket at once (with the client's last handshake bytes
        # unread) would reset the connection before the client reads the alert.
        spare = raw.dup()
        conn = self.server.context.wrap_socket(raw, server_side=True, do_handshake_on_connect=False)
        try:
            conn.do_handshake()
        except (ssl.SSLError, OSError) as error:
            print(f"handshake refused: {error}", file=sys.stderr, flush=True)
            conn.close()
            drain_and_close(spare)
            return
        spare.close()
        try:
            data = b""
            while b"\r\n\r\n" not in data and len(data) < 65536:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                data += chunk
            body = subject_text(conn.getpeercert() or {}).encode()
            head = (
                "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"
                f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n"
            ).encode()
            conn.sendall(head + body)
        except (ssl.SSLError, OSError) as error:
            # A TLS 1.3 client learns about a refused certificate only after its handshake;
            # the alert is sent when the server's handshake fails, which surfaces here or above.
            print(f"connection failed: {error}", file=sys.stderr, flush=True)
        finally:
            try:
                conn.close()
            except OSError:
                pass


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True


def main():
    if len(sys.argv) != 5:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    port, cert, key, ca = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4]
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    context.load_verify_locations(cafile=ca)
    context.verify_mode = ssl.CERT_REQUIRED
    server = Server(("127.0.0.1", port), Handler)
    server.context = context
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass


if __name__ == "__main__":
    main()
