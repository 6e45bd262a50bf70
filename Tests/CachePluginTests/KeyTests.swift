import NetToolbox
import Foundation
import NetCore
import NetPlugins
import Testing

@Suite("Cache keys")
struct KeyTests {
    @Test("ignore query order and the fragment")
    func queryOrder() {
        let a = CacheKey(request: makeRequest("https://api.example.com/items?b=2&a=1#top"))
        let b = CacheKey(request: makeRequest("https://api.example.com/items?a=1&b=2"))
        #expect(a == b)
        #expect(a != CacheKey(request: makeRequest("https://api.example.com/items?a=1&b=3")))
    }

    @Test("differ by method, body, version, chosen headers and sensitive data")
    func components() {
        let base = CacheKey(request: makeRequest(method: .post, body: .data(Data("x".utf8))))
        #expect(base != CacheKey(request: makeRequest(method: .put, body: .data(Data("x".utf8)))))
        #expect(base != CacheKey(request: makeRequest(method: .post, body: .data(Data("y".utf8)))))
        #expect(base != CacheKey(request: makeRequest(method: .post, body: .data(Data("x".utf8))), version: 2))
        #expect(base != CacheKey(request: makeRequest(method: .post, body: .data(Data("x".utf8))), sensitiveData: "user-1"))
        let english = CacheKey(request: makeRequest(headers: ["Accept-Language": "en"]), headerNames: ["Accept-Language"])
        let french = CacheKey(request: makeRequest(headers: ["Accept-Language": "fr"]), headerNames: ["Accept-Language"])
        #expect(english != french)
        #expect(
            CacheKey(request: makeRequest(headers: ["X-Other": "1"]), headerNames: ["Accept-Language"])
                == CacheKey(request: makeRequest(), headerNames: ["Accept-Language"]))
    }

    @Test("are plain text that includes the SHA-256 of the body, so they are the same in every process")
    func stableText() throws {
        let key = try #require(CacheKey(request: makeRequest(method: .post, body: .data(Data("abc".utf8)))))
        #expect(key.rawValue == "1|POST|https://api.example.com/items|ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad|v0")
        #expect(key.digest == SHA256.hex(Data(key.rawValue.utf8)))
    }

    @Test("are not made for file-backed bodies")
    func fileBodies() {
        #expect(CacheKey(request: makeRequest(method: .post, body: .file(URL(fileURLWithPath: "/tmp/x")))) == nil)
    }
}
