"""HTTP/2 fault server: malformed and oversized header blocks, written raw (HEADERS + CONTINUATION)
with the connection's own HPACK encoder so the connection stays usable afterwards.

Endpoints (raw header blocks, each followed by DATA "hello" with END_STREAM):
  /two-content-lengths             :status 200, content-length: 5, content-length: 7
  /duplicate-status                :status 200 twice
  /missing-status                  content-type: text/plain only
  /non-numeric-status              :status abc
  /uppercase-header                :status 200, X-Upper: 1
  /hpack-bomb                      :status 200, x-bomb (4000-byte value, literal with incremental
                                   indexing), then 4000 one-byte references to that dynamic-table
                                   entry: ~8 KB on the wire, ~16 MB of decoded header list
  /big-header [bytes=300000]       :status 200 and x-big of `bytes` bytes, in HEADERS + CONTINUATION
"""

from h2_fault.connection import DATA, END_STREAM, frame, hpack_int, qint


def _raw_response(c, sid, headers):
    c.raw_headers(sid, c.encode(headers))
    c.raw(frame(DATA, END_STREAM, sid, b"hello"))
    c.forget(sid)


def h_two_content_lengths(c, sid, q):
    _raw_response(c, sid, [(":status", "200"), ("content-length", "5"), ("content-length", "7")])


def h_duplicate_status(c, sid, q):
    _raw_response(c, sid, [(":status", "200"), (":status", "200")])


def h_missing_status(c, sid, q):
    _raw_response(c, sid, [("content-type", "text/plain")])


def h_non_numeric_status(c, sid, q):
    _raw_response(c, sid, [(":status", "abc")])


def h_uppercase_header(c, sid, q):
    _raw_response(c, sid, [(":status", "200"), ("X-Upper", "1")])


def h_hpack_bomb(c, sid, q):
    name, value = b"x-bomb", b"b" * 4000
    # The literal goes through the connection's encoder, which adds it to its dynamic table exactly
    # as the client's decoder does (it fits the default 4096-byte table), then 4000 indexed
    # references to it are appended by hand.
    block = c.encode([(":status", "200"), (name, value)])
    match = c.h2.encoder.header_table.search(name, value)
    if match is not None and match[2] is not None:
        block += hpack_int(match[0], 7, 0x80) * 4000
    else:   # the client shrank the table: no entry to point at, repeat the literal (still ~16 MB)
        block += c.encode([(name, value)] * 4000)
    c.raw_headers(sid, block)
    c.raw(frame(DATA, END_STREAM, sid, b"hello"))
    c.forget(sid)


def h_big_header(c, sid, q):
    n = max(0, qint(q, "bytes", 300000))
    _raw_response(c, sid, [(":status", "200"), ("x-big", "v" * n)])


ROUTES = {
    "/two-content-lengths": h_two_content_lengths,
    "/duplicate-status": h_duplicate_status,
    "/missing-status": h_missing_status,
    "/non-numeric-status": h_non_numeric_status,
    "/uppercase-header": h_uppercase_header,
    "/hpack-bomb": h_hpack_bomb,
    "/big-header": h_big_header,
}
