#!/usr/bin/env python3
"""NetKit WebSocket fault server: hostile RFC 6455 peers, one per path, for the client's conformance tests.

Usage: ws_fault_server.py PORT
  PORT 0: the kernel picks a free port. The first line on stdout is "PORT <n>". Binds 127.0.0.1
  only; plain ws:// (asyncio streams, no package needed). Every path but the first three answers a
  correct 101 (right Sec-WebSocket-Accept) and then misbehaves as described.

  /healthz                 plain HTTP 200 "ok"
  /silent-upgrade          reads the upgrade request and never answers (the open must end by its
                           timeout, or at once when its task is cancelled)
  /status-200              200 OK with a body instead of 101
  /wrong-accept            101 whose Sec-WebSocket-Accept does not match the key
  /unoffered-subprotocol   101 choosing subprotocol "mqtt"
  /unoffered-extension     101 with "Sec-WebSocket-Extensions: permessage-deflate"
  /masked-frame            a masked text frame (servers must not mask)
  /huge-length             a binary frame header announcing 2^63-1 bytes, then silence
  /reserved-bits           a text frame with RSV1 and RSV2 set
  /reserved-opcode         a frame with opcode 0x3
  /bad-utf8                a text frame whose payload is not UTF-8 (0xCE 0xBA 0xFF)
  /invalid-close-code      a close frame with code 1005 (never valid on the wire)
  /never-closes            reads and drops everything, never answers a close
  /ping-flood              20000 pings (4-byte payload), then the text "done"; reads meanwhile
  /ping-flood-for?seconds=N  pings (4-byte payload) as fast as the client takes them for N seconds
                           (a soak: scripts/soak-websocket), then the text "done <pings sent>"
  /slow-bytes              the text message "hello" one byte every 200 ms, then a close 1000
  /count-pings             reads the client's frames; after its third ping, sends the text "3 pings"
  /stale-pong              answers the first ping with a pong of another payload, then a close 1000
  /deflate-*, /other-extension  permessage-deflate peers: see ws_fault_deflate.py
"""
import asyncio
import base64
import hashlib
import struct
import sys
from urllib.parse import parse_qs, urlsplit

import ws_fault_deflate

GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"


def frame(opcode, payload=b"", fin=True, first_extra=0, masked=False):
    head = bytes([(0x80 if fin else 0) | opcode | first_extra])
    mask_bit = 0x80 if masked else 0
    n = len(payload)
    if n < 126:
        head += bytes([mask_bit | n])
    elif n < 65536:
        head += bytes([mask_bit | 126]) + struct.pack("!H", n)
    else:
        head += bytes([mask_bit | 127]) + struct.pack("!Q", n)
    if masked:
        key = b"\x01\x02\x03\x04"
        payload = bytes(b ^ key[i % 4] for i, b in enumerate(payload))
        head += key
    return head + payload


async def drain(reader):
    try:
        while await reader.read(65536):
            pass
    except (ConnectionError, OSError):
        pass


async def read_frame(reader):
    """One client frame (masked, as clients must send): (opcode, unmasked payload)."""
    first, second = await reader.readexactly(2)
    length = second & 0x7F
    if length == 126:
        length = struct.unpack("!H", await reader.readexactly(2))[0]
    elif length == 127:
        length = struct.unpack("!Q", await reader.readexactly(8))[0]
    key = await reader.readexactly(4) if second & 0x80 else b"\0\0\0\0"
    payload = await reader.readexactly(length)
    return first & 0x0F, bytes(b ^ key[i % 4] for i, b in enumerate(payload))


async def count_pings(reader, writer):
    pings = 0
    while pings < 3:
        opcode, _ = await read_frame(reader)
        pings += opcode == 0x9
    writer.write(frame(0x1, b"3 pings"))
    await writer.drain()


async def stale_pong(reader, writer):
    """Answers the first ping with a pong of another payload, then closes (1000)."""
    while True:
        opcode, _ = await read_frame(reader)
        if opcode == 0x9:
            break
    writer.write(frame(0xA, b"not yours") + frame(0x8, struct.pack("!H", 1000)))
    await writer.drain()


async def handle(reader, writer):
    try:
        head = await reader.readuntil(b"\r\n\r\n")
    except (asyncio.IncompleteReadError, asyncio.LimitOverrunError, ConnectionError):
        writer.close()
        return
    lines = head.decode("latin-1").split("\r\n")
    path = lines[0].split(" ")[1] if len(lines[0].split(" ")) > 1 else "/"
    headers = {}
    for line in lines[1:]:
        if ":" in line:
            name, value = line.split(":", 1)
            headers[name.strip().lower()] = value.strip()
    if path == "/silent-upgrade":
        await drain(reader)
        writer.close()
        return
    if path == "/healthz" or path == "/status-200":
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nok")
        await writer.drain()
        writer.close()
        return
    key = headers.get("sec-websocket-key", "").encode()
    accept = base64.b64encode(hashlib.sha1(key + GUID).digest()).decode()
    extra = ""
    if path == "/wrong-accept":
        accept = base64.b64encode(hashlib.sha1(b"not the key" + GUID).digest()).decode()
    elif path == "/unoffered-subprotocol":
        extra = "Sec-WebSocket-Protocol: mqtt\r\n"
    elif path == "/unoffered-extension":
        extra = "Sec-WebSocket-Extensions: permessage-deflate\r\n"
    parts = urlsplit(path)
    extra += ws_fault_deflate.extension_header(parts.path)
    writer.write(("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Accept: {accept}\r\n{extra}\r\n").encode())
    try:
        if path == "/count-pings":
            await count_pings(reader, writer)
        elif path == "/stale-pong":
            await stale_pong(reader, writer)
    except (asyncio.IncompleteReadError, ConnectionError):
        writer.close()
        return
    reading = asyncio.ensure_future(drain(reader))
    deflate = ws_fault_deflate.misbehave(parts.path, {k: v[-1] for k, v in parse_qs(parts.query).items()}, frame)
    try:
        if deflate is not None:
            writer.write(deflate)
        elif path == "/masked-frame":
            writer.write(frame(0x1, b"masked", masked=True))
        elif path == "/huge-length":
            writer.write(b"\x82\x7f" + struct.pack("!Q", 2**63 - 1))
        elif path == "/reserved-bits":
            writer.write(frame(0x1, b"rsv", first_extra=0x60))
        elif path == "/reserved-opcode":
            writer.write(frame(0x3, b"op"))
        elif path == "/bad-utf8":
            writer.write(frame(0x1, b"\xce\xba\xff"))
        elif path == "/invalid-close-code":
            writer.write(frame(0x8, struct.pack("!H", 1005)))
        elif path == "/ping-flood":
            ping = frame(0x9, b"ping")
            for _ in range(200):
                writer.write(ping * 100)
                await writer.drain()
            writer.write(frame(0x1, b"done"))
        elif path.startswith("/ping-flood-for"):
            seconds = float(path.partition("seconds=")[2] or "60")
            ping = frame(0x9, b"ping")
            loop = asyncio.get_running_loop()
            end = loop.time() + seconds
            sent = 0
            while loop.time() < end:
                writer.write(ping * 100)
                await writer.drain()
                sent += 100
            writer.write(frame(0x1, f"done {sent}".encode()))
        elif path == "/slow-bytes":
            for byte in frame(0x1, b"hello"):
                writer.write(bytes([byte]))
                await writer.drain()
                await asyncio.sleep(0.2)
            writer.write(frame(0x8, struct.pack("!H", 1000)))
        await writer.drain()
        await asyncio.wait_for(reading, timeout=60 if not path.startswith("/ping-flood-for") else 600)
    except (ConnectionError, OSError, asyncio.TimeoutError):
        pass
    finally:
        reading.cancel()
        writer.close()


async def main():
    port = int(sys.argv[1]) if len(sys.argv) > 1 else 0
    server = await asyncio.start_server(handle, "127.0.0.1", port)
    print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main())
