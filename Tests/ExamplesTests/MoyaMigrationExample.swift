// The worked migration of Sources/NetCore/NetCore.docc/ComingFromMoya.md: a Moya client for a
// small shop API, ported to NetKit. The article's NetKit code blocks are copied from this file
// (its tests are in MoyaMigrationTests.swift); ArticleTwinTests fails when they drift apart.
import Foundation
import NetCore
import NetPlugins

/// The shop's endpoints: the same cases as the Moya enum.
enum Shop {
    case login(email: String, password: String)
    case products(page: Int, filters: Parameters)
    case product(id: Int)
    case cart
    case placeOrder(OrderDraft)
    case updateProfile(name: String, newsletter: Bool)
    case uploadAvatar(jpeg: Data)
    case invoice(orderID: Int, to: URL)
}

extension Shop: TargetType {
    var baseURL: URL { URL(string: "https://shop.example.com/api/v1")! }

    var path: String {
        switch self {
        case .login: "/login"
        case .products: "/products"
        case .product(let id): "/products/\(id)"
        case .cart: "/cart"
        case .placeOrder: "/orders"
        case .updateProfile: "/me"
        case .uploadAvatar: "/me/avatar"
        case .invoice(let orderID, _): "/orders/\(orderID)/invoice"
        }
    }

    var method: HTTPMethod {
        switch self {
        case .login, .placeOrder, .updateProfile, .uploadAvatar: .post
        case .products, .product, .cart, .invoice: .get
        }
    }

    // Moya's `task`.
    var content: RequestContent {
        switch self {
        case .login(let email, let password): .json(["email": email, "password": password])
        case .products(let page, let filters): .parameters(filters.merging(["page": page]))
        case .product, .cart: .plain
        case .placeOrder(let draft): .json(draft)
        case .updateProfile(let name, let newsletter):
            .parameters(["name": name, "newsletter": newsletter])
        case .uploadAvatar(let jpeg):
            .multipart([
                MultipartPart(
                    name: "avatar", data: jpeg, fileName: "avatar.jpg", mimeType: "image/jpeg")
            ])
        case .invoice(_, let file): .download(to: file, resumable: false)
        }
    }

    var headers: [String: String] { ["Accept": "application/json"] }

    // Moya's `validationType`. The provider's `defaultValidation` replaces `.successCodes`, the
    // protocol's default, so the one 2xx-only endpoint lists its codes.
    var validation: Validation {
        switch self {
        case .placeOrder: .codes(Set(200...299))
        default: .successCodes
        }
    }

    // Moya's `sampleData`, with a status code and headers.
    var sampleResponse: SampleResponse {
        switch self {
        case .login: .json(#"{"token": "sample-token"}"#)
        case .products: .json(#"{"items": [{"id": 7, "name": "Trail shoe", "priceCents": 8900}]}"#)
        case .product(id: 7): .json(#"{"id": 7, "name": "Trail shoe", "priceCents": 8900}"#)
        case .product: .json(#"{"error": "no such product"}"#, statusCode: 404)
        case .cart: .json(#"{"error": "no cart yet"}"#, statusCode: 404)
        case .placeOrder: .json(#"{"id": 1001, "status": "pending"}"#, statusCode: 201)
        case .updateProfile, .uploadAvatar: SampleResponse(statusCode: 204)
        case .invoice:
            SampleResponse(
                statusCode: 200, headers: ["Content-Type": "application/pdf"],
                data: Data("%PDF-1.7 sample".utf8))
        }
    }
}

extension Shop: AccessTokenAuthorizable {
    var authorizationType: AuthorizationType? {
        switch self {
        case .login, .products, .product: nil
        case .cart, .placeOrder, .updateProfile, .uploadAvatar, .invoice: .bearer
        }
    }
}

struct Product: Decodable, Equatable, Sendable {
    var id: Int
    var name: String
    var priceCents: Int
}

struct CartItem: Codable, Equatable, Sendable {
    var productID: Int
    var quantity: Int
}

struct Cart: Decodable, Equatable, Sendable {
    var items: [CartItem]
    static let empty = Cart(items: [])
}

struct OrderDraft: Encodable, Sendable {
    var items: [CartItem]
    var note: String?
}

struct Order: Decodable, Equatable, Sendable {
    var id: Int
    var status: String
}

struct LoginResult: Decodable, Sendable {
    var token: String
}

enum ShopClientError: Error {
    case notLoggedIn
}

/// Where the app keeps its token (the Keychain, in the real app).
actor TokenStore {
    private var saved: String?

    init(saved: String? = nil) { self.saved = saved }

    func save(_ token: String) { saved = token }

    func token() throws -> String {
        guard let saved else { throw ShopClientError.notLoggedIn }
        return saved
    }
}

/// The app's network layer. It used to own a `MoyaProvider<ShopAPI>`.
struct ShopClient: Sendable {
    let provider: Provider<Shop>
    let auth: AuthPlugin
    let tokens: TokenStore

    init(
        transport: any Transport = DefaultTransport.shared, tokens: TokenStore,
        callbackQueue: DispatchQueue = .main
    ) {
        // AccessTokenPlugin: the token is asked for once and kept; `Shop` chooses the scheme
        // per case.
        let auth = AuthPlugin(token: { try await tokens.token() })
        var configuration = ProviderConfiguration(callbackQueue: callbackQueue)
        configuration.defaultValidation = Validation.none  // Moya handed every status over
        // Alamofire wrote true as 1
        configuration.parameterEncoding = ParameterEncoding(boolStyle: .numeric)
        provider = Provider(
            transport: transport, plugins: [auth, LoggerPlugin()], configuration: configuration)
        self.auth = auth
        self.tokens = tokens
    }

    func logIn(email: String, password: String) async throws(NetworkError) {
        let login = try await provider.request(.login(email: email, password: password))
            .filterSuccessfulStatusCodes()
            .decode(LoginResult.self)
        await tokens.save(login.token)
        auth.setToken(login.token)  // the plugin keeps the token it has: hand it the new one
    }

    /// `filters` is the `[String: Any]` the Moya code built from the filter screen.
    func products(page: Int, filters: [String: Any] = [:]) async throws(NetworkError) -> [Product] {
        let filters = try Parameters(any: filters)
        return try await provider.request(.products(page: page, filters: filters))
            .filterSuccessfulStatusCodes()
            .decode([Product].self, atKeyPath: "items")
    }

    func product(id: Int) async throws(NetworkError) -> Product {
        try await provider.request(.product(id: id))
            .filterSuccessfulStatusCodes()
            .decode(Product.self)
    }

    /// The server answers 404 while the user has no cart; Moya handed that over like any response.
    func cart() async throws(NetworkError) -> Cart {
        try Self.cart(from: try await provider.request(.cart))
    }

    /// The same for screens that still take a completion handler; it runs on `callbackQueue`.
    @discardableResult
    func cart(
        completion: @escaping @Sendable (Result<Cart, NetworkError>) -> Void
    ) -> any Cancellable {
        provider.send(.cart) { result in
            completion(
                result.flatMap { response in
                    Result { () throws(NetworkError) in try Self.cart(from: response) }
                })
        }
    }

    static func cart(from response: Response) throws(NetworkError) -> Cart {
        if response.statusCode == 404 { return .empty }
        return try response.filterSuccessfulStatusCodes().decode(Cart.self)
    }

    func placeOrder(_ draft: OrderDraft) async throws(NetworkError) -> Order {
        // No filter needed: `Shop.validation` keeps this endpoint 2xx-only.
        try await provider.request(.placeOrder(draft), as: Order.self)
    }

    func updateProfile(name: String, newsletter: Bool) async throws(NetworkError) {
        _ = try await provider.request(.updateProfile(name: name, newsletter: newsletter))
            .filterSuccessfulStatusCodes()
    }

    func uploadAvatar(_ jpeg: Data) async throws(NetworkError) {
        _ = try await provider.request(.uploadAvatar(jpeg: jpeg)).filterSuccessfulStatusCodes()
    }

    /// Downloads an invoice into `file` (folders are created; an existing file is replaced only
    /// by a complete 2xx download).
    func downloadInvoice(orderID: Int, to file: URL) async throws(NetworkError) -> URL {
        let response = try await provider.request(.invoice(orderID: orderID, to: file))
            .filterSuccessfulStatusCodes()
        return response.fileURL ?? file
    }
}
