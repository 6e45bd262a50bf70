// Runs the NetKit code of the article ComingFromAlamofire (its code is AlamofireMigrationExample.swift).
import NetToolbox
import Foundation
import NetCore
import NetPlugins
import NetTestSupport
import Testing

@Suite("Coming from Alamofire: a Session ported")
struct AlamofireMigrationExample {
    struct Page: Decodable, Equatable {
        var query: String
    }

    /// Stands in for api.example.com: 401 unless the token is fresh, 503 once for item 2, HTML
    /// for item 1, a broken connection for the first review, a feed of lines and a manual.
    static func server() -> StubTransport {
        let hits = Locked<[String: Int]>([:])
        return StubTransport(
            behavior: .custom { request in
                let path = request.url.path
                let hit = hits.update { counts in
                    counts[path, default: 0] += 1
                    return counts[path, default: 0]
                }
                func json(_ text: String, _ status: Int = 200) -> Response {
                    Response(statusCode: status, headers: ["Content-Type": "application/json"], data: Data(text.utf8), request: request)
                }
                guard request.headers["Authorization"] == "Bearer fresh" else { return Response(statusCode: 401, request: request) }
                switch path {
                case "/v2/search":
                    var response = json(#"{"query": "\#(request.url.query ?? "")"}"#)
                    response.headers["Set-Cookie"] = "region=eu; Path=/; Secure"
                    return response
                case "/v2/items/1":
                    return Response(statusCode: 200, headers: ["Content-Type": "text/html"], data: Data("<html>".utf8), request: request)
                case "/v2/items/2":
                    return hit == 1 ? json("{}", 503) : json(#"{"query": "item 2"}"#)
                case "/v2/items/3":
                    return json(#"{"name": "no query here"}"#)
                case "/v2/items/7/reviews":
                    if hit == 1 { throw NetworkError.connectionLost(reason: "reset by peer") }
                    return json(#"{"query": "\#(request.headers["Idempotency-Key"] ?? "")"}"#, 201)
                case "/v2/items/7/manual":
                    return Response(statusCode: 200, data: Data("manual".utf8), request: request)
                case "/v2/orders/feed":
                    return Response(statusCode: 200, data: Data("order 1 shipped\norder 2 packed\n".utf8), request: request)
                default:
                    return Response(statusCode: 404, request: request)
                }
            })
    }

    static let pins = [Data(repeating: 1, count: 32).base64EncodedString(), Data(repeating: 2, count: 32).base64EncodedString()]

    static func makeProvider(log: Locked<[String]> = Locked([])) throws -> (Provider<Catalog>, OAuthTokens) {
        let tokens = OAuthTokens(access: "expired", renew: { "fresh" })
        let provider = try makeCatalogProvider(transport: server(), tokens: tokens, pins: pins) { line in log.update { $0.append(line) } }
        return (provider, tokens)
    }

    @Test func parametersEncodeAsAlamofireDid() async throws {
        let (provider, _) = try Self.makeProvider()
        let search = try await provider.buildRequest(.search(query: "desk lamp", inStock: true, tags: ["led", "desk"]))
        #expect(search.url.query == "q=desk%20lamp&in_stock=1&tags%5B%5D=led&tags%5B%5D=desk")
        let review = try await provider.buildRequest(.review(itemID: 7, ReviewDraft(stars: 5, bodyText: "Bright")))
        let body = try JSONSerialization.jsonObject(with: review.body.inMemoryData ?? Data()) as? [String: Any]
        #expect(body?["body_text"] as? String == "Bright")
        #expect(review.headers["Idempotency-Key"]?.count == 36)
        #expect(search.tls != nil)  // pinned: CurlTransport enforces it
    }

    @Test func anExpiredTokenIsRefreshedOnceAndTheCallRepeated() async throws {
        let log = Locked<[String]>([])
        let (provider, tokens) = try Self.makeProvider(log: log)
        let page = try await provider.request(
            .search(query: "lamp", inStock: false, tags: []), as: Page.self)
        #expect(page.query == "q=lamp&in_stock=0")
        #expect(await tokens.current() == "fresh")
        #expect(log.current == ["GET /v2/search #1: unacceptableStatus", "GET /v2/search #2: 200"])
        let jar = provider.configuration.cookieJar
        #expect(jar?.cookies(for: URL(string: "https://api.example.com/")!).map(\.name) == ["region"])
    }

    @Test func retriesFollowTheirRules() async throws {
        let log = Locked<[String]>([])
        let (provider, tokens) = try Self.makeProvider(log: log)
        _ = try await tokens.refresh()

        #expect(try await provider.request(.item(id: 2), as: Page.self) == Page(query: "item 2"))  // RetryPolicy: 503
        let created = try await provider.request(.review(itemID: 7, ReviewDraft(stars: 4, bodyText: "Good")), as: Page.self)
        #expect(created.query.count == 36)  // the one key both attempts carried
        #expect(log.current.filter { $0.hasPrefix("POST") } == ["POST /v2/items/7/reviews #1: connectionLost", "POST /v2/items/7/reviews #2: 201"])
    }

    @Test func failuresReadLikeTheAFErrorsTheyReplace() async throws {
        let (provider, tokens) = try Self.makeProvider()
        _ = try await tokens.refresh()

        let html = await #expect(throws: NetworkError.self) { try await provider.request(.item(id: 1)) }
        #expect(html.map(message(for:)) == "the server did not answer with JSON")
        #expect(html?.response?.string() == "<html>")

        let shape = await #expect(throws: NetworkError.self) {
            try await provider.request(.item(id: 3), as: Page.self)
        }
        #expect(shape?.underlyingError is DecodingError)
        #expect(shape.map(message(for:))?.hasPrefix("unexpected JSON: ") == true)
        #expect(shape?.response?.statusCode == 200)
    }

    @Test func streamsAndDownloads() async throws {
        let (provider, tokens) = try Self.makeProvider()
        _ = try await tokens.refresh()

        var lines: [String] = []
        // DataStreamRequest
        for try await line in provider.stream(.orderFeed).lines { lines.append(line) }
        #expect(lines == ["order 1 shipped", "order 2 packed"])

        let file = ScratchFolders.make("manuals").appendingPathComponent("7/manual.pdf")
        let response = try await provider.request(.manual(itemID: 7, to: file))
        #expect(response.fileURL == file)
        #expect(try Data(contentsOf: file) == Data("manual".utf8))
    }

    @Test func transportsTakeTheSessionsPlace() {
        let shared = Provider<Catalog>()  // Session.default: DefaultTransport.shared
        let foundation = Provider<Catalog>(transport: URLSessionTransport(configuration: .ephemeral))
        #if os(Linux)
            let curl = Provider<Catalog>(
                transport: CurlTransport(configuration: .init(maxConnectionsPerHost: 6)))
            #expect(curl.transport.capabilities.contains(.tlsPolicy))
        #endif
        #expect(!foundation.transport.capabilities.contains(.tlsPolicy))
        #expect(shared.plugins.isEmpty)
    }
}
