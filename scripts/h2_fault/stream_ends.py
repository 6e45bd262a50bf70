"""HTTP/2 fault server: streams and connections that end early (RST_STREAM, GOAWAY or a TCP close
after partial data, an oversized DATA frame, DATA on stream 0).

Endpoints:
  /rst-after-data [code=0]         200 (no content-length), DATA "partial body" (12 bytes), then
                                   RST_STREAM(code); the connection stays usable
  /rst-after-data-cl [code=0]      the same with content-length: 100
  /goaway-after-data               200 (no content-length), DATA "partial body", GOAWAY(last stream
                                   = this one, NO_ERROR), the socket closes ~100 ms later
  /close-after-data                200 (no content-length), DATA "partial body", then a TCP close
  /oversized-data                  200 (no content-length), then one DATA frame of 20000 bytes with
                                   END_STREAM (above the client's SETTINGS_MAX_FRAME_SIZE 16384)
  /data-on-stream-0                200 (no END_STREAM), a DATA frame "x" on stream 0, then silence;
                                   the server closes the connection after 30 s (or when the client
                                   does)
"""

from h2_fault.connection import DATA, END_STREAM, Close, frame, headers_no_length, qint

PARTIAL = b"partial body"


def _data_then(c, sid, content_length=None):
    headers = [(":status", "200"), ("content-type", "application/octet-stream")]
    if content_length is not None:
        headers.append(("content-length", str(content_length)))
    c.h2.send_headers(sid, headers)
    c.h2.send_data(sid, PARTIAL)
    c.flush()


def h_rst_after_data(c, sid, q):
    _data_then(c, sid)
    c.h2.reset_stream(sid, error_code=qint(q, "code", 0))
    c.flush()


def h_rst_after_data_cl(c, sid, q):
    _data_then(c, sid, content_length=100)
    c.h2.reset_stream(sid, error_code=qint(q, "code", 0))
    c.flush()


def h_goaway_after_data(c, sid, q):
    _data_then(c, sid)
    c.h2.close_connection(error_code=0, last_stream_id=sid)
    c.h2_closed = True
    c.flush()
    return _close_after(0.1)


def _close_after(seconds):
    yield seconds
    raise Close()


def h_close_after_data(c, sid, q):
    _data_then(c, sid)
    raise Close()


def h_oversized_data(c, sid, q):
    headers_no_length(c, sid)
    c.raw(frame(DATA, END_STREAM, sid, b"o" * 20000))
    c.forget(sid)


def h_data_on_stream_0(c, sid, q):
    headers_no_length(c, sid)
    c.raw(frame(DATA, 0, 0, b"x"))
    return _close_after(30)


ROUTES = {
    "/rst-after-data": h_rst_after_data,
    "/rst-after-data-cl": h_rst_after_data_cl,
    "/goaway-after-data": h_goaway_after_data,
    "/close-after-data": h_close_after_data,
    "/oversized-data": h_oversized_data,
    "/data-on-stream-0": h_data_on_stream_0,
}
