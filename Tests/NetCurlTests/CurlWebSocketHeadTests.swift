#if canImport(CCurl)
    import Foundation
    @testable import NetBase
    @testable import NetCurl
    import Testing

    /// The HTTP/1.1 text of the WebSocket handshake the curl transport writes and reads itself.
    @Suite("Curl WebSocket handshake head")
    struct CurlWebSocketHeadTests {
        func text(_ request: Request) -> String { String(decoding: CurlWebSocketHead.request(request), as: UTF8.self) }

        @Test("The request line keeps the encoded path and query, and Host carries a non-default port only")
        func requestHead() {
            let head = text(.to(URL(string: "http://127.0.0.1:8080/a%20b/c?x=1&y=%2F")!, headers: ["Sec-WebSocket-Version": "13"]))
            #expect(head.hasPrefix("GET /a%20b/c?x=1&y=%2F HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n"))
            #expect(head.contains("Sec-WebSocket-Version: 13\r\n"))
            #expect(head.hasSuffix("\r\n\r\n"))
            #expect(text(.to(URL(string: "https://example.com")!)).hasPrefix("GET / HTTP/1.1\r\nHost: example.com\r\n"))
            #expect(text(.to(URL(string: "http://[::1]:9000/x")!)).contains("Host: [::1]:9000\r\n"))
        }

        @Test("A response head is parsed once complete, and the bytes after it are kept for the frames")
        func responseHead() throws {
            let bytes = Array("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection:Upgrade\r\n\r\n".utf8) + [0x81, 0x00]
            #expect(try CurlWebSocketHead.response(Array(bytes.prefix(20))) == nil)
            let parsed = try #require(try CurlWebSocketHead.response(bytes))
            #expect(parsed.status == 101)
            #expect(parsed.headers["upgrade"] == "websocket" && parsed.headers["Connection"] == "Upgrade")
            #expect(parsed.rest == [0x81, 0x00])
        }

        @Test("Repeated fields of the handshake's answer are all kept: each Set-Cookie and WWW-Authenticate")
        func repeatedFields() throws {
            let head =
                "HTTP/1.1 401 Unauthorized\r\nSet-Cookie: a=1\r\nWWW-Authenticate: Basic realm=\"x\"\r\n"
                + "Set-Cookie: b=2\r\nWWW-Authenticate: Bearer\r\n\r\n"
            let parsed = try #require(try CurlWebSocketHead.response(Array(head.utf8)))
            #expect(parsed.headers.values(for: "set-cookie") == ["a=1", "b=2"])
            #expect(parsed.headers.values(for: "WWW-Authenticate") == ["Basic realm=\"x\"", "Bearer"])
        }

        @Test("A head that is not HTTP/1.x, lacks a colon, or passes 64 KiB is an invalid response")
        func badHeads() {
            for bad in ["SSH-2.0-OpenSSH\r\n\r\n", "HTTP/1.1 101 OK\r\nno colon here\r\n\r\n"] {
                #expect(throws: NetworkError.self) { try CurlWebSocketHead.response(Array(bad.utf8)) }
            }
            #expect(throws: NetworkError.self) { try CurlWebSocketHead.response([UInt8](repeating: 0x61, count: 70_000)) }
        }
    }
#endif
