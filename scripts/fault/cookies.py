"""HTTP/1.1 fault server: Set-Cookie lines a cookie jar must refuse, written as raw bytes.

Endpoints:
  /set-cookies [case=ok, line, redirect]  200 {"case","count"} with the Set-Cookie lines of `case`
                                   written as raw bytes (see _COOKIE_CASES: hostile Domain values,
                                   Secure over http, CR/NUL/controls, 5000-byte and nameless
                                   cookies, 10,000 lines), each case with a harmless "ok=1; Path=/"
                                   last; case=lines sends the `line` parameters (repeatable) as
                                   they are; with redirect=URL the answer is a 302 to URL
"""

import json

# /set-cookies: Set-Cookie values a cookie jar must not keep, with one it must keep ("ok=1").
_COOKIE_OK = b"ok=1; Path=/"
_COOKIE_CASES = {
    "ok": [],
    "public-suffix": [b"evil=1; Domain=com; Path=/", b"evil2=1; Domain=.co.uk; Path=/"],
    "other-site": [b"evil=1; Domain=example.com; Path=/", b"evil2=1; Domain=localhost.example; Path=/"],
    "ip-domain": [b"evil=1; Domain=0.0.1; Path=/", b"evil2=1; Domain=.1; Path=/", b"evil3=1; Domain=localhost; Path=/"],
    "secure-over-http": [b"evil=1; Secure; Path=/", b"__Host-evil2=1; Secure; Path=/"],
    "control": [b"evil=1\rX-Injected: 1; Path=/", b"evil2=a\x01b; Path=/", b"evil3=a\x7fb; Path=/"],
    "nul": [b"evil=a\x00b; Path=/"],
    "huge": [b"evil=" + b"v" * 5000 + b"; Path=/"],
    "nameless": [b"=novalue; Path=/", b"noequals; Path=/", b"; Path=/"],
    "flood": [b"f%d=1" % i for i in range(10000)],
}


class CookieEndpoints:
    ROUTES = {"/set-cookies": "h_set_cookies"}

    def h_set_cookies(self):
        case = self._qstr("case", "ok")
        if case == "lines":
            lines = [line.encode("utf-8") for line in self.query.get("line", [])]
        elif case in _COOKIE_CASES:
            lines = _COOKIE_CASES[case] + [_COOKIE_OK]
        else:
            self._json(404, {"error": "unknown case", "case": case})
            return
        body = json.dumps({"case": case, "count": len(lines)}).encode()
        redirect = self._qstr("redirect", "")
        head = [b"HTTP/1.1 302 Found" if redirect else b"HTTP/1.1 200 OK",
                b"Content-Type: application/json", b"Content-Length: %d" % len(body)]
        if redirect:
            head.append(b"Location: " + redirect.encode("utf-8"))
        head += [b"Set-Cookie: " + line for line in lines]
        self._raw(b"\r\n".join(head) + b"\r\n\r\n" + body, close=False)
