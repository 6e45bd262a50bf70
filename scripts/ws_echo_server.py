#!/usr/bin/env python3
"""NetKit WebSocket echo server: a strict RFC 6455 peer (the `websockets` package) for the happy paths.

Usage: ws_echo_server.py PORT [CERT KEY]
  PORT 0: the kernel picks a free port; with CERT/KEY (PEM) it speaks wss:// (TLS), otherwise ws://.
The first line on stdout is "PORT <n>". Binds 127.0.0.1 only. Needs python3-websockets (10.x or later).

Paths:
  /healthz      plain HTTP 200 "ok" (readiness; no upgrade)
  /echo         echoes every message (text as text, binary as binary); subprotocols "chat" and
                "superchat" are accepted when offered (the first the client lists that is known)
  /close?code=N&reason=R  sends a close with code N and reason R right after the handshake
  /auth         answers 401 unless the request has "Authorization: Bearer fresh"
  /cookie       echoes the request's Cookie header as one text message, then closes
  /burst?count=N&size=S   sends N binary messages of S bytes as fast as the client reads, then closes 1000
  /echo-no-context  /echo with permessage-deflate agreed as server_no_context_takeover and
                client_no_context_takeover (each message compressed on its own)
  /echo-window-9    /echo with permessage-deflate agreed with 9-bit windows both ways
Messages up to 64 MiB (inflated) are accepted. permessage-deflate (RFC 7692) is agreed when the client
offers it: on /echo with the package's defaults (context takeover, 12-bit windows), on the two paths
above as they say, nowhere else.
"""
import asyncio
import http
import ssl
import sys
from urllib.parse import parse_qs, urlsplit

import websockets
from websockets.extensions.permessage_deflate import ServerPerMessageDeflateFactory

DEFLATE_BY_PATH = {
    "/echo": [ServerPerMessageDeflateFactory(server_max_window_bits=12, client_max_window_bits=12)],
    "/echo-no-context": [ServerPerMessageDeflateFactory(server_no_context_takeover=True, client_no_context_takeover=True)],
    "/echo-window-9": [ServerPerMessageDeflateFactory(server_max_window_bits=9, client_max_window_bits=9)],
}


class Protocol(websockets.WebSocketServerProtocol):
    """Agrees to permessage-deflate per path (DEFLATE_BY_PATH); the package decides per server."""

    async def process_request(self, path, headers):
        self.netkit_route = urlsplit(path).path
        return await super().process_request(path, headers)

    def process_extensions(self, headers, available):
        return super().process_extensions(headers, DEFLATE_BY_PATH.get(getattr(self, "netkit_route", ""), None))


async def process_request(path, headers):
    parts = urlsplit(path)
    if parts.path == "/healthz":
        return http.HTTPStatus.OK, [("Content-Type", "text/plain")], b"ok"
    if parts.path == "/auth" and headers.get("Authorization") != "Bearer fresh":
        return http.HTTPStatus.UNAUTHORIZED, [("Content-Type", "text/plain"), ("WWW-Authenticate", "Bearer")], b"refresh"
    return None


async def handler(ws, path=None):
    parts = urlsplit(path if path is not None else ws.path)
    query = {k: v[-1] for k, v in parse_qs(parts.query).items()}
    if parts.path == "/close":
        await ws.close(code=int(query.get("code", "1000")), reason=query.get("reason", ""))
    elif parts.path == "/cookie":
        await ws.send(ws.request_headers.get("Cookie", ""))
        await ws.close()
    elif parts.path == "/burst":
        payload = b"x" * int(query.get("size", "1"))
        for _ in range(int(query.get("count", "1"))):
            await ws.send(payload)
        await ws.close()
    else:
        async for message in ws:
            await ws.send(message)


async def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    context = None
    if len(sys.argv) > 3:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[2], sys.argv[3])
    async with websockets.serve(
        handler, "127.0.0.1", port, ssl=context, process_request=process_request,
        subprotocols=["chat", "superchat"], compression=None, max_size=64 * 1024 * 1024, max_queue=16,
        create_protocol=Protocol,
    ) as server:
        print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
        await asyncio.Future()


if __name__ == "__main__":
    asyncio.run(main())
