"""HTTP/1.1 fault server: byte ranges and resumable downloads.

Endpoints:
  /range/<size> [cut=K]            bytes i % 251 for i in 0..<size; honours "Range: bytes=N-" and
                                   "bytes=N-M" (206 + Content-Range), 416 with
                                   "Content-Range: bytes */size" when N >= size; ETag "range-<size>";
                                   If-Range with another value gives the full 200. cut=K closes the
                                   connection after K body bytes of this response (for resume tests).
  /range-ignored/<size>            same bytes, always 200 with the full body, ignores Range
"""

from serving import CHUNK

_PERIOD = 251
_PATTERN = bytes(range(_PERIOD)) * ((CHUNK // _PERIOD) + 2)


def pattern_bytes(start, length):
    """Bytes start..start+length of the sequence i % 251, length <= CHUNK."""
    off = start % _PERIOD
    return _PATTERN[off:off + length]


class RangeEndpoints:
    PREFIXES = (("/range/", "h_range_honoured"), ("/range-ignored/", "h_range_ignored"))

    def h_range_honoured(self, rest):
        self.h_range(rest, honour=True)

    def h_range_ignored(self, rest):
        self.h_range(rest, honour=False)

    def h_range(self, rest, honour):
        try:
            size = int(rest.strip("/"))
            if size < 0:
                raise ValueError
        except ValueError:
            return self._json(400, {"error": "bad size"})
        etag = '"range-%d"' % size
        start, end = 0, size - 1
        status = 200
        rng = self.headers.get("Range")
        if_range = self.headers.get("If-Range")
        if honour and rng and (if_range is None or if_range.strip() == etag):
            spec = rng.strip()
            if spec.startswith("bytes=") and "," not in spec:
                a, _, b = spec[6:].partition("-")
                try:
                    if a.strip() == "":           # suffix range bytes=-N
                        n = int(b)
                        start, end = max(0, size - n), size - 1
                    else:
                        start = int(a)
                        end = int(b) if b.strip() else size - 1
                        end = min(end, size - 1)
                    if start >= size or start > end:
                        return self._send(416, b"", "application/octet-stream",
                                          {"Content-Range": "bytes */%d" % size, "ETag": etag})
                    status = 206
                except ValueError:
                    start, end = 0, size - 1
        length = max(0, end - start + 1)
        cut = self._qint("cut", -1)
        self.send_response(status)
        self.send_header("Content-Type", "application/octet-stream")
        self.send_header("Content-Length", str(length))
        self.send_header("ETag", etag)
        if honour:
            self.send_header("Accept-Ranges", "bytes")
        if status == 206:
            self.send_header("Content-Range", "bytes %d-%d/%d" % (start, end, size))
        self.end_headers()
        if self.command == "HEAD":
            return
        sent = 0
        pos = start
        limit = length if cut < 0 else min(length, cut)
        while sent < limit:
            n = min(CHUNK, limit - sent)
            self.wfile.write(pattern_bytes(pos, n))
            pos += n
            sent += n
        if sent < length:
            self.close_connection = True
