// The compiled example of Sources/NetCore/NetCore.docc/ComingFromAlamofire.md: an Alamofire
// `Session` with an interceptor, an authenticator, a retry policy, server trust, an event monitor
// and cookies, ported to NetKit. The article's NetKit code blocks are copied from this file (its
// tests are in AlamofireMigrationTests.swift); ArticleTwinTests fails when they drift apart.
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
        // download(_:to:), resumeData
        case .manual(_, let file): .download(to: file, resumable: true)
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
        guard request.method == .post, error.isTransient, request.attempt < 2 else {
            return .proceed
        }
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
    configuration.parameterEncoding = ParameterEncoding(
        boolStyle: .numeric, dictionaryStyle: .brackets, nilStyle: .dropped)
    // JSONParameterEncoder(encoder:)
    configuration.jsonEncoder.keyEncodingStrategy = .convertToSnakeCase
    configuration.cookieJar = CookieJar()  // the session's HTTPCookieStorage
    return Provider(
        transport: transport,
        plugins: [
            // AuthenticationInterceptor: one shared refresh on 401, then the call runs again.
            AuthPlugin(token: { await tokens.current() }, refresh: { try await tokens.refresh() }),
            IdempotentPosts(),  // interceptor:
            RetryPlugin(),  // RetryPolicy(): 2 retries, exponential backoff, idempotent methods
            // serverTrustManager:
            try PinningPlugin([.init(host: "api.example.com", keyHashes: pins)]),
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
