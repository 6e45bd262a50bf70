// The compiled example of Sources/NetCore/NetCore.docc/ComingFromAlamofire.md: an Alamofire
// `Session` with an interceptor, an authenticator, a retry policy, server trust, an event monitor
// and cookies, ported to NetKit. The article's NetKit code blocks are copied from this file (the
// tests one indentation level less); ArticleTwinTests fails when they drift apart.
import NetTestSupport
import Testing

import Foundation
import NetCore
import NetPlugins

/// The endpoints the app called with `session.request(url, ...)`, now one enum.
enum Catalog {
    case search(query: String, inStock: Bool, tags: [String])
    case item(id: Int)
    case review(itemID: Int, ReviewDraft)
    case manual(itemID: Int, to: URL)
    case orderFeed
}

struct ReviewDraft: Encodable, Sendable {
    var stars: Int
    var bodyText: String
}

extension Catalog: TargetType {
    var baseURL: URL { URL(string: "https://api.example.com/v2")! }

    var path: String {
        switch self {
        case .search: "/search"
        case .item(let id): "/items/\(id)"
        case .review(let itemID, _): "/items/\(itemID)/reviews"
        case .manual(let itemID, _): "/items/\(itemID)/manual"
        case .orderFeed: "/orders/feed"
        }
    }

    var method: HTTPMethod {
        if case .review = self { .post } else { .get }
    }

    var content: RequestContent {
        switch self {
        case .search(let query, let inStock, let tags):
            .parameters(["q": query, "in_stock": inStock, "tags": tags])  // URLEncoding.default
        case .item, .orderFeed: .plain
        case .review(_, let draft): .json(draft)  // JSONParameterEncoder
        case .manual(_, let file): .download(to: file, resumable: true)  // download(_:to:), resumeData
        }
    }

    // validate(): 2xx is NetKit's default; validate(contentType:) is `requiringContentType`.
    var validation: Validation {
        switch self {
        case .search, .item, .review: .successCodes.requiringContentType(["application/json"])
        case .manual, .orderFeed: .successCodes
        }
    }
}

/// The app's `RequestInterceptor`: `adapt` is `prepare`, `retry` is `failure`. POSTs carry an
/// idempotency key, the same on every attempt, so a POST whose connection broke may be sent again.
struct IdempotentPosts: Plugin {
    enum Key: RequestContextKey { static var defaultValue: String? { nil } }

    func prepare(_ request: inout Request) async throws -> PrepareAction {
        guard request.method == .post else { return .proceed }
        let key = request.context[Key.self] ?? UUID().uuidString  // a retry inherits the context
        request.context[Key.self] = key
        request.headers["Idempotency-Key"] = key
        return .proceed
    }

    func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
        guard request.method == .post, error.isTransient, request.attempt < 2 else { return .proceed }
        return .retry(after: .milliseconds(50))
    }
}

/// The app's `EventMonitor`: called once for every attempt, whatever its outcome.
struct EventLog: Plugin {
    let record: @Sendable (String) -> Void

    func didReceive(_ result: Result<Response, NetworkError>, for request: Request) async {
        let outcome =
            switch result {
            case .success(let response): "\(response.statusCode)"
            case .failure(let error): "\(error.code)"
            }
        record("\(request.method) \(request.url.path) #\(request.attempt): \(outcome)")
    }
}

/// The OAuth tokens (the Keychain, in the real app). `renew` calls the token endpoint through a
/// provider of its own, never through the one that carries the `AuthPlugin`.
actor OAuthTokens {
    private var access: String
    private let renew: @Sendable () async throws -> String

    init(access: String, renew: @escaping @Sendable () async throws -> String) {
        self.access = access
        self.renew = renew
    }

    func current() -> String { access }

    func refresh() async throws -> String {
        access = try await renew()
        return access
    }
}

/// What the app's Alamofire `Session` became.
func makeCatalogProvider(
    transport: any Transport = DefaultTransport.shared, tokens: OAuthTokens, pins: [String],
    record: @escaping @Sendable (String) -> Void
) throws -> Provider<Catalog> {
    var configuration = ProviderConfiguration(headers: ["Accept": "application/json"])
    // URLEncodedFormEncoder's defaults: true is 1, nested keys in brackets, nil keys left out.
    configuration.parameterEncoding = ParameterEncoding(boolStyle: .numeric, dictionaryStyle: .brackets, nilStyle: .dropped)
    configuration.jsonEncoder.keyEncodingStrategy = .convertToSnakeCase  // JSONParameterEncoder(encoder:)
    configuration.cookieJar = CookieJar()  // the session's HTTPCookieStorage
    return Provider(
        transport: transport,
        plugins: [
            // AuthenticationInterceptor: one shared refresh on 401, then the call runs again.
            AuthPlugin(token: { await tokens.current() }, refresh: { try await tokens.refresh() }),
            IdempotentPosts(),  // interceptor:
            RetryPlugin(),  // RetryPolicy(): 2 retries, exponential backoff, idempotent methods
            try PinningPlugin([.init(host: "api.example.com", keyHashes: pins)]),  // serverTrustManager:
            EventLog(record: record),  // eventMonitors:
        ],
        configuration: configuration)
}

/// What used to switch over `AFError`.
func message(for error: NetworkError) -> String {
    switch error.code {
    case .unacceptableStatus: "the server answered \(error.statusCode ?? 0)"
    case .unacceptableContentType: "the server did not answer with JSON"
    case .decodingFailed: "unexpected JSON: \(error.underlyingError.map { "\($0)" } ?? "")"
    case .pinningFailed, .tlsFailure: "the server could not be trusted"
    case .cancelled: "cancelled"
    default: error.description
    }
}

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
        let page = try await provider.request(.search(query: "lamp", inStock: false, tags: []), as: Page.self)
        #expect(page.query == "q=lamp&in_stock=0")
        #expect(await tokens.current() == "fresh")
        #expect(log.current == ["GET /v2/search #1: unacceptableStatus", "GET /v2/search #2: 200"])
        #expect(provider.configuration.cookieJar?.cookies(for: URL(string: "https://api.example.com/")!).map(\.name) == ["region"])
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

        let shape = await #expect(throws: NetworkError.self) { try await provider.request(.item(id: 3), as: Page.self) }
        #expect(shape?.underlyingError is DecodingError)
        #expect(shape.map(message(for:))?.hasPrefix("unexpected JSON: ") == true)
        #expect(shape?.response?.statusCode == 200)
    }

    @Test func streamsAndDownloads() async throws {
        let (provider, tokens) = try Self.makeProvider()
        _ = try await tokens.refresh()

        var lines: [String] = []
        for try await line in provider.stream(.orderFeed).lines { lines.append(line) }  // DataStreamRequest
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
            let curl = Provider<Catalog>(transport: CurlTransport(configuration: .init(maxConnectionsPerHost: 6)))
            #expect(curl.transport.capabilities.contains(.tlsPolicy))
        #endif
        #expect(!foundation.transport.capabilities.contains(.tlsPolicy))
        #expect(shared.plugins.isEmpty)
    }
}
