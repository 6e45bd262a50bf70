import Foundation
import NetCore
import Testing

@testable import NetPlugins

/// The HAR model capture writes and replay reads: the written text stays the same field for
/// field (files written by earlier versions and by this one replay alike), and what capture
/// writes reads back as the same exchange.
@Suite("HAR document: one model for capture and replay")
struct HARDocumentTests {
    // Computed, not `static let`: values made once in a global initializer and kept for the
    // process are reported by the leak sanitizer in CI.
    static var start: Date { Date(timeIntervalSince1970: 1_700_000_000.25) }

    /// A form POST with a query and cookies, answered 201 with a cookie, over HTTP/2 with metrics.
    static var form: CapturedExchange {
        CapturedExchange(
            id: UUID(uuidString: "00000000-0000-0000-0000-000000000001")!, attempt: 2, method: .post,
            url: "https://api.example.com/orders?expand=items&q=a%20b", host: "api.example.com",
            path: "/orders",
            requestHeaders: ["Content-Type": "application/x-www-form-urlencoded", "Cookie": "session=<redacted>; theme=dark"],
            requestBody: Data("name=Ann+Lee&note=a%26b&empty".utf8), statusCode: 201,
            responseHeaders: ["Content-Type": "application/json", "Set-Cookie": "id=7; Path=/", "Location": "/orders/7"],
            responseBody: Data(#"{"id":7}"#.utf8), source: .network, error: nil, startDate: start, duration: .milliseconds(40),
            metrics: ResponseMetrics(
                startDate: start, duration: .milliseconds(40), connectDuration: .milliseconds(10), timeToFirstByte: .milliseconds(30),
                bytesSent: 99, bytesReceived: 120, httpVersion: "HTTP/2"),
            bodiesOmitted: false)
    }

    /// A binary body without metrics.
    static var binary: CapturedExchange {
        CapturedExchange(
            id: UUID(uuidString: "00000000-0000-0000-0000-000000000002")!, attempt: 1, method: .get, url: "http://127.0.0.1:8080/image", host: "127.0.0.1",
            path: "/image",
            requestHeaders: [:], requestBody: nil, statusCode: 200, responseHeaders: [:], responseBody: Data([0xFF, 0xD8, 0x00]),
            source: .network, error: nil, startDate: start, duration: .milliseconds(5), metrics: nil, bodiesOmitted: false)
    }

    /// No response at all.
    static var failed: CapturedExchange {
        CapturedExchange(
            id: UUID(uuidString: "00000000-0000-0000-0000-000000000003")!, attempt: 1, method: .delete, url: "http://127.0.0.1:9/gone", host: "127.0.0.1",
            path: "/gone",
            requestHeaders: [:], requestBody: Data(), statusCode: nil, responseHeaders: [:], responseBody: Data(), source: nil,
            error: "connection refused", startDate: start, duration: .milliseconds(1), metrics: nil, bodiesOmitted: false)
    }

    static var written: String {
        get throws { String(decoding: try HARDocument(exchanges: [form, binary, failed]).encoded(), as: UTF8.self) }
    }

    @Test("capture writes the same HAR text as before the models were merged")
    func writtenTextIsUnchanged() throws {
        let text = try Self.written
        #expect(text == HARDocumentGolden.text, "\(text)")
    }

    @Test("what capture writes reads back as the same exchanges")
    func roundTrip() throws {
        let exchanges = try HARReader.exchanges(from: Data(try Self.written.utf8), name: "round trip")
        try #require(exchanges.count == 3)
        let form = exchanges[0]
        #expect(form.method == .post && form.url.absoluteString == Self.form.url)
        #expect(form.requestHeaders["Cookie"] == "session=<redacted>; theme=dark")
        #expect(form.requestBody == Self.form.requestBody)
        #expect(form.statusCode == 201 && form.responseBody == Self.form.responseBody)
        #expect(form.responseHeaders["Location"] == "/orders/7" && form.httpVersion == "HTTP/2")
        #expect(form.duration == .milliseconds(40) && form.connectDuration == .milliseconds(10))
        #expect(form.timeToFirstByte == .milliseconds(30))
        #expect(exchanges[1].responseBody == Data([0xFF, 0xD8, 0x00]))
        #expect(exchanges[2].statusCode == nil && exchanges[2].error == "connection refused" && exchanges[2].requestBody == nil)
    }

    @Test("fields replay does not read never fail an archive, whatever an exporter put in them")
    func unreadFieldsAreLenient() throws {
        let text = #"""
            {"log": {"creator": "a string", "entries": [{
              "cache": [], "connection": 443,
              "request": {"method": "get", "url": "https://a.test/x", "cookies": "none", "queryString": {}, "headersSize": 1.5, "bodySize": null},
              "response": {"status": 204, "statusText": 0, "cookies": [{"value": 1}], "redirectURL": null, "headersSize": "x", "bodySize": 2.5,
                           "content": {"size": 0.5}},
              "timings": {"ssl": "n/a", "wait": 3}
            }]}}
            """#
        let exchanges = try HARReader.exchanges(from: Data(text.utf8), name: "lenient")
        #expect(exchanges.count == 1)
        #expect(exchanges.first?.method == .get && exchanges.first?.statusCode == 204)
        #expect(exchanges.first?.timeToFirstByte == .milliseconds(3))
    }

    @Test("form fields decode the same for HAR params, replay bodies and replay queries")
    func formFields() {
        let fields = FormFields.decode("a=1&&b=x+y%21&c&=v&d=%zz")
        #expect(fields.map(\.name) == ["a", "b", "c", "", "d"])
        #expect(fields.map(\.value) == ["1", "x y!", "", "v", "%zz"])
    }

    @Test("each Set-Cookie field is its own header and its own cookie in the HAR, commas and all")
    func repeatedSetCookieFields() throws {
        let exchange = CapturedExchange(
            id: UUID(), attempt: 1, method: .get, url: "https://api.example.com/login", host: "api.example.com", path: "/login",
            requestHeaders: [:], requestBody: nil, statusCode: 200,
            responseHeaders: HTTPHeaders(allFields: [.init(name: "Set-Cookie", value: "z=y, a=b; Path=/"), .init(name: "Set-Cookie", value: "id=7")]),
            responseBody: Data(), source: .network, error: nil, startDate: Self.start, duration: .milliseconds(1), metrics: nil,
            bodiesOmitted: false)
        let document = HARDocument(exchanges: [exchange])
        let response = try #require(document.log.entries.first?.response)
        #expect(response.cookies?.map(\.name) == ["z", "id"])
        #expect(response.cookies?.map(\.value) == ["y, a=b", "7"])
        #expect(response.headers?.filter { $0.name == "Set-Cookie" }.map(\.value) == ["z=y, a=b; Path=/", "id=7"])
    }
}
