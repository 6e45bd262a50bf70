import Foundation

/// A small HAR 1.2 archive as a browser's developer tools export it, written by hand to the spec
/// (http://www.softwareishard.com/blog/har-12-spec/) with the extras Chrome and Firefox add:
/// `pages`, `_initiator`, `_priority`, `_resourceType`, `cache`, HTTP/2 pseudo-headers, timings of
/// `-1`, `headersSize: -1`, `postData.params`, `"_error": null`, and entries that leave optional
/// fields out.
///
/// - 0 and 1: the same `GET /api/search` (query in the order `q`, `page`, `sort`) answered with
///   different result lists; gzip headers beside the decoded text, as browsers record it.
/// - 2: a `POST /api/orders` with a JSON `postData` (Firefox style: integer timings, `params: []`).
/// - 3: a PNG whose body is base64 (`encoding: "base64"`), without `timings`, `cache`,
///   `cookies` or `queryString`.
enum BrowserHARFixture {
    /// How replay errors name the fixture.
    static let name = "BrowserFixture.har"

    /// The first 16 bytes of a PNG: what entry 3's base64 text decodes to.
    static var pngBytes: Data { Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]) }

    /// The archive as UTF-8 bytes.
    static var data: Data { Data(text.utf8) }

    static let text = #"""
        {
          "log": {
            "version": "1.2",
            "creator": { "name": "WebInspector", "version": "537.36" },
            "browser": { "name": "Chrome", "version": "124.0.6367.91" },
            "pages": [
              {
                "startedDateTime": "2024-05-02T10:15:29.870Z",
                "id": "page_1",
                "title": "https://shop.example.com/",
                "pageTimings": { "onContentLoad": 412.3, "onLoad": 980.1 }
              }
            ],
            "entries": [
              {
                "_initiator": {
                  "type": "script",
                  "stack": { "callFrames": [ { "functionName": "search", "scriptId": "17", "url": "https://shop.example.com/app.js", "lineNumber": 41, "columnNumber": 12 } ] }
                },
                "_priority": "High",
                "_resourceType": "fetch",
                "cache": {},
                "connection": "443",
                "pageref": "page_1",
                "request": {
                  "method": "GET",
                  "url": "https://shop.example.com/api/search?q=red%20shoes&page=2&sort=price",
                  "httpVersion": "http/2.0",
                  "headers": [
                    { "name": ":authority", "value": "shop.example.com" },
                    { "name": ":method", "value": "GET" },
                    { "name": ":path", "value": "/api/search?q=red%20shoes&page=2&sort=price" },
                    { "name": ":scheme", "value": "https" },
                    { "name": "accept", "value": "application/json" },
                    { "name": "accept-encoding", "value": "gzip, deflate, br" }
                  ],
                  "queryString": [
                    { "name": "q", "value": "red%20shoes" },
                    { "name": "page", "value": "2" },
                    { "name": "sort", "value": "price" }
                  ],
                  "cookies": [],
                  "headersSize": -1,
                  "bodySize": 0
                },
                "response": {
                  "status": 200,
                  "statusText": "",
                  "httpVersion": "http/2.0",
                  "headers": [
                    { "name": "content-encoding", "value": "gzip" },
                    { "name": "content-length", "value": "61" },
                    { "name": "content-type", "value": "application/json; charset=utf-8" },
                    { "name": "x-request-id", "value": "first" }
                  ],
                  "cookies": [],
                  "content": { "size": 44, "mimeType": "application/json", "compression": -17, "text": "{\"page\":2,\"results\":[\"red sneaker\"]}" },
                  "redirectURL": "",
                  "headersSize": -1,
                  "bodySize": -1,
                  "_transferSize": 163,
                  "_error": null
                },
                "serverIPAddress": "203.0.113.10",
                "startedDateTime": "2024-05-02T10:15:30.123Z",
                "time": 84.21,
                "timings": { "blocked": 1.2, "dns": -1, "ssl": -1, "connect": -1, "send": 0.11, "wait": 80.5, "receive": 2.4, "_blocked_queueing": 0.9 }
              },
              {
                "_initiator": { "type": "script" },
                "_priority": "High",
                "_resourceType": "fetch",
                "cache": {},
                "connection": "443",
                "pageref": "page_1",
                "request": {
                  "method": "GET",
                  "url": "https://shop.example.com/api/search?q=red%20shoes&page=2&sort=price",
                  "httpVersion": "http/2.0",
                  "headers": [
                    { "name": ":authority", "value": "shop.example.com" },
                    { "name": "accept", "value": "application/json" }
                  ],
                  "queryString": [
                    { "name": "q", "value": "red%20shoes" },
                    { "name": "page", "value": "2" },
                    { "name": "sort", "value": "price" }
                  ],
                  "cookies": [],
                  "headersSize": -1,
                  "bodySize": 0
                },
                "response": {
                  "status": 200,
                  "statusText": "",
                  "httpVersion": "http/2.0",
                  "headers": [
                    { "name": "content-type", "value": "application/json; charset=utf-8" },
                    { "name": "x-request-id", "value": "second" }
                  ],
                  "cookies": [],
                  "content": { "size": 58, "mimeType": "application/json", "text": "{\"page\":2,\"results\":[\"red sneaker\",\"red boot\"]}" },
                  "redirectURL": "",
                  "headersSize": -1,
                  "bodySize": -1,
                  "_transferSize": 140,
                  "_error": null
                },
                "serverIPAddress": "203.0.113.10",
                "startedDateTime": "2024-05-02T10:15:31.500Z",
                "time": 40.02,
                "timings": { "blocked": -1, "dns": -1, "ssl": -1, "connect": -1, "send": 0.02, "wait": 38, "receive": 2 }
              },
              {
                "pageref": "page_1",
                "startedDateTime": "2024-05-02T10:15:33.010+02:00",
                "request": {
                  "bodySize": 27,
                  "method": "POST",
                  "url": "https://shop.example.com/api/orders",
                  "httpVersion": "HTTP/1.1",
                  "headers": [
                    { "name": "Host", "value": "shop.example.com" },
                    { "name": "Content-Type", "value": "application/json" },
                    { "name": "Content-Length", "value": "27" }
                  ],
                  "cookies": [],
                  "queryString": [],
                  "headersSize": 412,
                  "postData": { "mimeType": "application/json", "params": [], "text": "{\"sku\":\"R-42\",\"quantity\":2}" }
                },
                "response": {
                  "status": 201,
                  "statusText": "Created",
                  "httpVersion": "HTTP/1.1",
                  "headers": [
                    { "name": "Content-Type", "value": "application/json" },
                    { "name": "Location", "value": "/api/orders/o-1001" }
                  ],
                  "cookies": [],
                  "content": { "mimeType": "application/json", "size": 18, "text": "{\"order\":\"o-1001\"}" },
                  "redirectURL": "/api/orders/o-1001",
                  "headersSize": 201,
                  "bodySize": 18
                },
                "cache": {},
                "timings": { "blocked": 0, "dns": 0, "connect": 0, "ssl": 0, "send": 0, "wait": 52, "receive": 0 },
                "time": 52,
                "_securityState": "secure",
                "serverIPAddress": "203.0.113.10",
                "connection": "443"
              },
              {
                "pageref": "page_1",
                "startedDateTime": "2024-05-02T10:15:33.400Z",
                "time": 12.5,
                "request": {
                  "method": "GET",
                  "url": "https://shop.example.com/static/logo.png",
                  "httpVersion": "http/2.0",
                  "headers": [ { "name": "accept", "value": "image/avif,image/webp,*/*" } ],
                  "headersSize": -1,
                  "bodySize": 0
                },
                "response": {
                  "status": 200,
                  "statusText": "OK",
                  "httpVersion": "http/2.0",
                  "headers": [ { "name": "content-type", "value": "image/png" } ],
                  "content": { "size": 16, "mimeType": "image/png", "text": "iVBORw0KGgoAAAANSUhEUg==", "encoding": "base64" },
                  "redirectURL": "",
                  "headersSize": -1,
                  "bodySize": 16
                }
              }
            ]
          }
        }
        """#
}
