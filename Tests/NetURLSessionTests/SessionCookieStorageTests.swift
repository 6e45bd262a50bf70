#if canImport(FoundationNetworking)
    import NetToolbox
    import FoundationNetworking
#endif
import Foundation
import Testing

@testable import NetBase
@testable import NetCore
@testable import NetURLSession

/// A session configuration's `HTTPCookieStorage`, honoured by `URLSessionTransport` under the
/// jar's rules: FoundationNetworking's own lookup checks only the host, and its store takes any
/// `Domain`, so NetKit decides what is kept and what is sent.
@Suite("URLSession cookie store bridge", .serialized)
struct SessionCookieStorageTests {
    struct Site: TargetType {
        var baseURL: URL { URL(string: "https://bank.example")! }
        var path: String { "/" }
        var method: HTTPMethod { .get }
        var content: RequestContent { .plain }
    }

    /// The shared store (the only one FoundationNetworking offers), emptied before and after.
    static func withStore(_ body: (SessionCookieStorage) async throws -> Void) async throws {
        let storage = HTTPCookieStorage.shared
        let clear = { for cookie in storage.cookies ?? [] where cookie.domain.hasSuffix("example") { storage.deleteCookie(cookie) } }
        clear()
        defer { clear() }
        let configuration = URLSessionConfiguration.default
        configuration.httpCookieStorage = storage
        configuration.httpShouldSetCookies = true
        configuration.httpCookieAcceptPolicy = .always
        try await body(try #require(SessionCookieStorage(configuration)))
    }

    /// The `Cookie` header a request to `url` carries, after a response to `from` set `fields`.
    static func sent(to url: String, after fields: [String], from: String, in store: SessionCookieStorage) async throws -> String? {
        var headers = HTTPHeaders()
        for field in fields { headers.add(name: "Set-Cookie", value: field) }
        let answer = headers
        _ = try await store.exchange(Request(url: URL(string: from)!, target: Site())) { Response(statusCode: 200, headers: answer, request: $0) }
        let seen = Locked<String?>(nil)
        _ = try await store.exchange(Request(url: URL(string: url)!, target: Site())) { request in
            seen.withLock { $0 = request.headers["Cookie"] }
            return Response(statusCode: 200, request: request)
        }
        return seen.withLock { $0 }
    }

    @Test("A Secure cookie never goes over plain http")
    func secureStaysOnHTTPS() async throws {
        try await Self.withStore { store in
            let header = try await Self.sent(
                to: "http://bank.example/", after: ["sid=1; Secure; Path=/", "plain=1; Path=/"], from: "https://bank.example/", in: store)
            #expect(header == "plain=1")
        }
    }

    @Test("A Domain naming a public suffix or another site is not stored")
    func publicSuffixRefused() async throws {
        try await Self.withStore { store in
            let header = try await Self.sent(
                to: "https://other.example/", after: ["evil=1; Domain=example; Path=/", "evil2=1; Domain=other.example; Path=/"],
                from: "https://evil.example/", in: store)
            #expect(header == nil)
        }
    }

    @Test("A cookie goes only below its path, and an expired one removes the stored cookie")
    func pathAndExpiry() async throws {
        try await Self.withStore { store in
            let elsewhere = try await Self.sent(to: "https://bank.example/b", after: ["a=1; Path=/a"], from: "https://bank.example/a/x", in: store)
            let below = try await Self.sent(to: "https://bank.example/a/y", after: [], from: "https://bank.example/", in: store)
            let removed = try await Self.sent(
                to: "https://bank.example/a/y", after: ["a=1; Path=/a; Max-Age=0"], from: "https://bank.example/a/x", in: store)
            #expect(elsewhere == nil)
            #expect(below == "a=1")
            #expect(removed == nil)
        }
    }
}
