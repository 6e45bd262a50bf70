"""permessage-deflate (RFC 7692) misbehaviours for ws_fault_server.py, one per path.

  /deflate-bomb?mib=N      agrees to permessage-deflate, then one compressed binary message of N MiB
                           (default 64) of zeros: about N KiB on the wire
  /deflate-burst?count=N   agrees, then N compressed binary messages of 1 MiB of zeros each (about 1 KiB
                           each on the wire, so one read holds dozens), then a close 1000
  /deflate-control-rsv1    agrees, then a ping with RSV1 set (control frames are never compressed)
  /deflate-continuation-rsv1  agrees, then a compressed text message whose continuation frame sets RSV1
  /deflate-unnegotiated    does not agree, then a valid compressed text frame (RSV1) all the same
  /deflate-corrupt         agrees, then a text frame with RSV1 whose payload is not deflate data
  /deflate-bad-utf8        agrees, then a compressed text message that inflates to invalid UTF-8
  /deflate-final-blocks    agrees, then text messages whose deflate data holds a final block (BFINAL,
                           as Z_FINISH writes it): "Hello" twice, RFC 7692 7.2.3.3's 8-byte form,
                           "Hello" + a sync-flushed " world" in one message, a plain "after"; then 1000
  /deflate-bad-window      answers "permessage-deflate; server_max_window_bits=7" (outside 8...15)
  /deflate-duplicate-parameter  answers server_no_context_takeover twice
  /deflate-value-on-flag   answers "client_no_context_takeover=1" (the parameter takes no value)
  /other-extension         answers "x-webkit-deflate-frame" (an extension nobody offered)
"""
import zlib

ANSWERS = {
    "/deflate-bomb": "permessage-deflate",
    "/deflate-burst": "permessage-deflate",
    "/deflate-control-rsv1": "permessage-deflate",
    "/deflate-continuation-rsv1": "permessage-deflate",
    "/deflate-corrupt": "permessage-deflate",
    "/deflate-bad-utf8": "permessage-deflate",
    "/deflate-final-blocks": "permessage-deflate",
    "/deflate-bad-window": "permessage-deflate; server_max_window_bits=7",
    "/deflate-duplicate-parameter": "permessage-deflate; server_no_context_takeover; server_no_context_takeover",
    "/deflate-value-on-flag": "permessage-deflate; client_no_context_takeover=1",
    "/other-extension": "x-webkit-deflate-frame",
}

RSV1 = 0x40
_bombs = {}


def extension_header(route):
    """The Sec-WebSocket-Extensions line of the 101 for `route`, or ""."""
    answer = ANSWERS.get(route)
    return f"Sec-WebSocket-Extensions: {answer}\r\n" if answer else ""


def compressed(data):
    """`data` as one permessage-deflate message payload: raw deflate, sync flush, tail removed."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = compressor.compress(data) + compressor.flush(zlib.Z_SYNC_FLUSH)
    assert body.endswith(b"\x00\x00\xff\xff")
    return body[:-4]


def finished(data):
    """`data` as one message payload ending the deflate stream: a final block (Z_FINISH), no flush."""
    compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
    return compressor.compress(data) + compressor.flush(zlib.Z_FINISH)


def final_blocks(frame):
    """The messages of /deflate-final-blocks, then a normal close."""
    payloads = [finished(b"Hello"), finished(b"Hello"), finished(b"Hello") + b"\x00",
                finished(b"Hello") + compressed(b" world"), compressed(b"after")]
    return b"".join(frame(0x1, payload, first_extra=RSV1) for payload in payloads) + frame(0x8, b"\x03\xe8")


def bomb(mib):
    """N MiB of zeros compressed, built from 1 MiB pieces: each sync-flushed piece after the first
    reads the same window of zeros, so it is the same bytes (compressing 1 GiB would take seconds)."""
    if mib not in _bombs:
        compressor = zlib.compressobj(9, zlib.DEFLATED, -15)
        zeros = bytes(1 << 20)
        first, second, third = (compressor.compress(zeros) + compressor.flush(zlib.Z_SYNC_FLUSH) for _ in range(3))
        assert second == third
        _bombs[mib] = (first + second * (mib - 1))[:-4]
    return _bombs[mib]


def misbehave(route, query, frame):
    """The bytes to send after the 101 for `route`, or None when it is not a deflate path."""
    if route == "/deflate-bomb":
        return frame(0x2, bomb(int(query.get("mib", "64"))), first_extra=RSV1)
    if route == "/deflate-burst":
        message = frame(0x2, bomb(1), first_extra=RSV1)
        return message * int(query.get("count", "64")) + frame(0x8, b"\x03\xe8")
    if route == "/deflate-final-blocks":
        return final_blocks(frame)
    if route == "/deflate-control-rsv1":
        return frame(0x9, b"ping", first_extra=RSV1)
    if route == "/deflate-continuation-rsv1":
        payload = compressed(b"hello, world")
        return frame(0x1, payload[:4], fin=False, first_extra=RSV1) + frame(0x0, payload[4:], first_extra=RSV1)
    if route in ("/deflate-unnegotiated", "/deflate-corrupt", "/deflate-bad-utf8"):
        payload = {
            "/deflate-unnegotiated": compressed(b"hello"),
            "/deflate-corrupt": b"\xff\xff\xff\xff",
            "/deflate-bad-utf8": compressed(b"\xce\xba\xff"),
        }[route]
        return frame(0x1, payload, first_extra=RSV1)
    return None
