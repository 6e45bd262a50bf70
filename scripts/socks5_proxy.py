#!/usr/bin/env python3
"""NetKit test SOCKS5 proxy (RFC 1928, CONNECT only; RFC 1929 user/password when asked).

Usage: socks5_proxy.py PORT [--auth USER:PASSWORD] [--allow-port P ...]
  PORT 0: the kernel picks a free port. The first line on stdout is always "PORT <n>".
  --auth: demand user/password authentication (method 0x02) with these credentials;
          without it, only "no authentication" (0x00) is offered.
  --allow-port: destination ports the proxy connects to (repeatable); any other port is refused
          with reply 0x02 ("connection not allowed by ruleset"). Without the flag, every port.
Binds 127.0.0.1 only and connects only to 127.0.0.1. Python standard library only.

Name resolution happens here, not in the client: a domain name ending in ".socks.test" resolves
to 127.0.0.1 inside this proxy and nowhere else, so a client that reaches such a name proved it
let the proxy resolve the name (curl's socks5h). Other names are resolved normally, and a
destination that does not resolve to 127.0.0.1 is refused (0x02): this proxy never reaches
beyond loopback. Every accepted CONNECT is logged to stderr as "CONNECT host:port".
"""

import argparse
import ipaddress
import select
import socket
import socketserver
import struct
import sys

HANDSHAKE_TIMEOUT = 5.0


class Refused(Exception):
    """Ends a handshake with this SOCKS reply code."""

    def __init__(self, code):
        super().__init__(code)
        self.code = code


def read_exactly(sock, count):
    data = b""
    while len(data) < count:
        chunk = sock.recv(count - len(data))
        if not chunk:
            raise ConnectionError("client closed during the handshake")
        data += chunk
    return data


def reply(sock, code):
    # VER, REP, RSV, ATYP=IPv4, BND.ADDR 0.0.0.0, BND.PORT 0
    sock.sendall(struct.pack("!BBBB4sH", 5, code, 0, 1, b"\0\0\0\0", 0))


def resolve(name):
    """The loopback address a destination name stands for, or Refused(0x04 host unreachable)."""
    if name.lower().rstrip(".").endswith(".socks.test"):
        return "127.0.0.1"
    try:
        address = socket.gethostbyname(name)
    except OSError:
        raise Refused(0x04)
    return address


class Handler(socketserver.BaseRequestHandler):
    def handle(self):
        client = self.request
        client.settimeout(HANDSHAKE_TIMEOUT)
        try:
            upstream = self.handshake(client)
        except (ConnectionError, OSError):
            return
        if upstream is None:
            return
        client.settimeout(None)
        self.relay(client, upstream)

    def handshake(self, client):
        config = self.server.config
        version, count = read_exactly(client, 2)
        if version != 5:
            return None
        methods = read_exactly(client, count)
        wanted = 2 if config.auth else 0
        if wanted not in methods:
            client.sendall(bytes([5, 0xFF]))
            return None
        client.sendall(bytes([5, wanted]))
        if config.auth:
            sub_version, user_length = read_exactly(client, 2)
            user = read_exactly(client, user_length).decode("utf-8", "replace")
            (password_length,) = read_exactly(client, 1)
            password = read_exactly(client, password_length).decode("utf-8", "replace")
            ok = sub_version == 1 and f"{user}:{password}" == config.auth
            client.sendall(bytes([1, 0 if ok else 1]))
            if not ok:
                return None
        version, command, _, address_type = read_exactly(client, 4)
        try:
            if version != 5 or command != 1:
                raise Refused(0x07)  # command not supported
            if address_type == 1:
                host = str(ipaddress.IPv4Address(read_exactly(client, 4)))
            elif address_type == 3:
                (length,) = read_exactly(client, 1)
                host = read_exactly(client, length).decode("ascii", "replace")
            elif address_type == 4:
                host = str(ipaddress.IPv6Address(read_exactly(client, 16)))
            else:
                raise Refused(0x08)  # address type not supported
            (port,) = struct.unpack("!H", read_exactly(client, 2))
            address = resolve(host) if address_type == 3 else host
            if address != "127.0.0.1":
                raise Refused(0x02)
            if config.allow_port and port not in config.allow_port:
                raise Refused(0x02)
            try:
                upstream = socket.create_connection((address, port), timeout=HANDSHAKE_TIMEOUT)
            except OSError:
                raise Refused(0x05)  # connection refused
        except Refused as refused:
            reply(client, refused.code)
            return None
        print(f"CONNECT {host}:{port}", file=sys.stderr, flush=True)
        reply(client, 0)
        upstream.settimeout(None)
        return upstream

    @staticmethod
    def relay(client, upstream):
        sockets = [client, upstream]
        try:
            while True:
                readable, _, _ = select.select(sockets, [], [], 60)
                if not readable:
                    return
                for sock in readable:
                    data = sock.recv(65536)
                    if not data:
                        return
                    (upstream if sock is client else client).sendall(data)
        except OSError:
            return
        finally:
            upstream.close()


class Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 128


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("--auth")
    parser.add_argument("--allow-port", type=int, action="append", default=[])
    config = parser.parse_args()
    with Server(("127.0.0.1", config.port), Handler) as server:
        server.config = config
        print(f"PORT {server.server_address[1]}", flush=True)
        server.serve_forever()


if __name__ == "__main__":
    main()
