#if canImport(CCurl)
    import CCurl
    import Foundation
    @testable import NetBase
    @testable import NetCurl
    import Testing

    /// The errors a WebSocket's connect fails with carry libcurl's message without the URL's
    /// userinfo, as the HTTP path's do.
    @Suite("Curl WebSocket connect errors")
    struct CurlWebSocketConnectErrorTests {
        @Test(
            "A libcurl message quoting the URL's user and password reaches the error without them",
            arguments: [CURLE_COULDNT_CONNECT.rawValue, CURLE_SSL_CONNECT_ERROR.rawValue, CURLE_GOT_NOTHING.rawValue])
        func userinfoRedacted(code: UInt32) throws {
            CurlGlobal.ensureInitialized()
            let easy = try #require(curl_easy_init())
            defer { curl_easy_cleanup(easy) }
            let channel = CurlWebSocketChannel(inboxCapacity: 1024, loop: try CurlWebSocketLoopQueue(index: 99))
            let request = Request.to(URL(string: "ws://alice:hunter2@127.0.0.1:9/socket")!)
            let error = CurlWebSocketConnect.failure(
                CURLcode(rawValue: code), detail: "could not reach ws://alice:hunter2@127.0.0.1:9/socket", easy: easy,
                request: request, proxy: nil, channel: channel)
            for text in [String(describing: error), String(reflecting: error), "\(error.underlyingError.map { "\($0)" } ?? "")"] {
                #expect(!text.contains("hunter2"), "\(text)")
                #expect(!text.contains("alice"), "\(text)")
            }
            #expect(String(describing: error).contains("127.0.0.1"), "the rest of the message stays")
        }
    }
#endif
