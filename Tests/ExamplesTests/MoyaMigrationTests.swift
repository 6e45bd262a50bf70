// Runs the NetKit code of the article ComingFromMoya (its code is MoyaMigrationExample.swift).
import NetToolbox
import Foundation
import NetCore
import NetPlugins
import Testing

@Suite("Coming from Moya: the worked migration")
struct MoyaMigrationExample {
    @Test func the404ForAMissingCartReachesTheAppAsInMoya() async throws {
        let client = ShopClient(transport: StubTransport(), tokens: TokenStore(saved: "t0ken"))
        #expect(try await client.cart() == .empty)

        // Without `defaultValidation = Validation.none`, NetKit's 2xx rule turns it into an error.
        let strict = Provider<Shop>(transport: StubTransport())
        let error = await #expect(throws: NetworkError.self) { try await strict.request(.cart) }
        #expect(error?.code == .unacceptableStatus)
        #expect(error?.response?.statusCode == 404)
    }

    @Test func parametersGoWhereURLEncodingDefaultPutThem() async throws {
        let client = ShopClient(transport: StubTransport(), tokens: TokenStore(saved: "t0ken"))
        let legacy: [String: Any] = ["category": "shoes", "in_stock": true, "size": 42]

        // Moya: `try provider.endpoint(.products(...)).urlRequest()`
        let list = try await client.provider.buildRequest(
            .products(page: 2, filters: try Parameters(any: legacy)))
        #expect(
            list.url.absoluteString
                == "https://shop.example.com/api/v1/products?category=shoes&in_stock=1&size=42&page=2")
        #expect(list.body.inMemoryData == Data())

        let profile = try await client.provider.buildRequest(
            .updateProfile(name: "Ada Lovelace", newsletter: false))
        #expect(profile.url.query == nil)
        #expect(profile.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        #expect(profile.body.inMemoryData == Data("name=Ada%20Lovelace&newsletter=0".utf8))
    }

    @Test func aValueAQueryCannotCarryFailsBeforeAnythingIsSent() async throws {
        let client = ShopClient(transport: StubTransport(), tokens: TokenStore())
        let error = await #expect(throws: NetworkError.self) {
            try await client.products(page: 1, filters: ["since": Date()])  // Alamofire sent the date's description
        }
        #expect(error?.code == .encodingFailed)
        #expect(error?.description.contains("\"since\"") == true)
    }

    @Test func theTokenGoesOnlyToTheEndpointsThatAskForIt() async throws {
        let client = ShopClient(transport: StubTransport(), tokens: TokenStore())
        try await client.logIn(email: "ada@example.com", password: "analytical")

        let cart = try await client.provider.buildRequest(.cart)
        #expect(cart.headers["Authorization"] == "Bearer sample-token")
        let catalogue = try await client.provider.buildRequest(.products(page: 1, filters: [:]))
        #expect(catalogue.headers["Authorization"] == nil)

        let login = try await client.provider.buildRequest(
            .login(email: "ada@example.com", password: "analytical"))
        #expect(login.headers["Authorization"] == nil)
        let body =
            try JSONSerialization.jsonObject(with: login.body.inMemoryData ?? Data())
            as? [String: String]
        #expect(body == ["email": "ada@example.com", "password": "analytical"])
    }

    @Test func responsesMadeFromAStatusAndABody() throws {
        let full = Response(
            statusCode: 200, data: Data(#"{"items": [{"productID": 7, "quantity": 2}]}"#.utf8))
        #expect(try ShopClient.cart(from: full) == Cart(items: [CartItem(productID: 7, quantity: 2)]))
        #expect(try ShopClient.cart(from: Response(statusCode: 404, data: Data())) == .empty)

        let error = #expect(throws: NetworkError.self) {
            try ShopClient.cart(from: Response(statusCode: 500, data: Data("busy".utf8)))
        }
        #expect(error?.response?.string() == "busy")  // MoyaError.statusCode(response)
    }

    @Test func filterSuccessfulStatusCodesFailsAMissingProduct() async throws {
        let client = ShopClient(transport: StubTransport(), tokens: TokenStore())
        #expect(try await client.product(id: 7) == Product(id: 7, name: "Trail shoe", priceCents: 8900))
        #expect(try await client.products(page: 1).map(\.id) == [7])

        let error = await #expect(throws: NetworkError.self) { try await client.product(id: 99) }
        #expect(error?.code == .unacceptableStatus)
        #expect(error?.response?.string()?.contains("no such product") == true)
    }

    @Test func ordersStayTwoHundredsOnly() async throws {
        let client = ShopClient(transport: StubTransport(), tokens: TokenStore(saved: "t0ken"))
        let draft = OrderDraft(items: [CartItem(productID: 7, quantity: 1)], note: nil)
        #expect(try await client.placeOrder(draft) == Order(id: 1001, status: "pending"))

        let soldOut = StubTransport(
            behavior: .custom { request in Response(statusCode: 409, request: request) })
        let refused = ShopClient(transport: soldOut, tokens: TokenStore(saved: "t0ken"))
        let error = await #expect(throws: NetworkError.self) { try await refused.placeOrder(draft) }
        #expect(error?.statusCode == 409)
        // the others keep Moya's rule
        #expect(try await refused.provider.request(.cart).statusCode == 409)
    }

    @Test func uploadsAndDownloads() async throws {
        let client = ShopClient(transport: StubTransport(), tokens: TokenStore(saved: "t0ken"))
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0])
        let upload = try await client.provider.buildRequest(.uploadAvatar(jpeg: jpeg))
        #expect(upload.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=") == true)
        let body = String(decoding: upload.body.inMemoryData ?? Data(), as: UTF8.self)
        #expect(body.contains(#"name="avatar"; filename="avatar.jpg""#))
        #expect(body.contains("Content-Type: image/jpeg"))
        try await client.uploadAvatar(jpeg)

        let file = temporaryDirectory().appendingPathComponent("invoices/2026/1001.pdf")
        let saved = try await client.downloadInvoice(orderID: 1001, to: file)
        #expect(try Data(contentsOf: saved) == Data("%PDF-1.7 sample".utf8))
    }

    @Test func anEndpointClosureThatAddsAPartBecomesAContentTransform() async throws {
        // Moya: an `endpointClosure` that replaced the task of every upload with one more part.
        var configuration = ProviderConfiguration()
        configuration.contentTransform = { content, _ in
            guard case .multipart(let parts) = content else { return content }
            return .multipart(parts + [MultipartPart(name: "device", value: "ipad-7")])
        }
        let provider = Provider<Shop>(transport: StubTransport(), configuration: configuration)

        let upload = try await provider.buildRequest(.uploadAvatar(jpeg: Data([0xFF, 0xD8])))
        let body = String(decoding: upload.body.inMemoryData ?? Data(), as: UTF8.self)
        #expect(body.contains(#"name="avatar"; filename="avatar.jpg""#))
        #expect(body.contains("name=\"device\"\r\n\r\nipad-7\r\n"))
        // Other contents, and other providers, are left as the targets describe them.
        #expect(try await provider.buildRequest(.cart).body.inMemoryData == Data())
    }

    @Test func anEmptyBodyDecodesAsMoyaDecodedIt() throws {
        let empty = Response(statusCode: 204, data: Data())
        // Moya: `map(Cart.self, failsOnEmptyData: false)` tries `{}`, then `[{}]`.
        #expect(try empty.decode([String: Int].self, failsOnEmptyData: false) == [:])
        #expect(try empty.decode(Order?.self, failsOnEmptyData: false) == nil)
        #expect(throws: NetworkError.self) { try empty.decode(Order.self, failsOnEmptyData: false) }
    }

    @Test func someEndpointsStubbedTheOthersSent() async throws {
        let sent = Locked<[String]>([])
        let server = StubTransport(
            behavior: .custom { request in
                sent.update { $0.append(request.url.path) }
                return Response(
                    statusCode: 200, headers: ["Content-Type": "application/json"],
                    data: Data(#"{"id": 8, "name": "Rain jacket", "priceCents": 12900}"#.utf8),
                    request: request)
            })

        // Moya: `stubClosure: { target in ... }`; `server` stands in for the network here.
        let transport = StubTransport(network: server) { target in
            switch target as? Shop {
            case .invoice?: .immediate  // not deployed yet: answered from `sampleResponse`
            default: nil
            }
        }
        let client = ShopClient(transport: transport, tokens: TokenStore(saved: "t0ken"))

        #expect(try await client.product(id: 8).name == "Rain jacket")
        let file = temporaryDirectory().appendingPathComponent("1001.pdf")
        _ = try await client.downloadInvoice(orderID: 1001, to: file)
        #expect(sent.current == ["/api/v1/products/8"])
    }

    @Test func anOfflineErrorKeepsItsURLError() async throws {
        // Moya: an `endpointClosure` whose `sampleResponseClosure` returns `.networkError(...)`.
        let offline = StubTransport(behavior: .custom { _ in throw URLError(.notConnectedToInternet) })
        let client = ShopClient(transport: offline, tokens: TokenStore())

        let error = await #expect(throws: NetworkError.self) { try await client.product(id: 7) }
        #expect((error?.underlyingError as? URLError)?.code == .notConnectedToInternet)
        #expect(error?.response == nil)
    }

    @Test func completionHandlersRunOnTheCallbackQueue() async throws {
        let queue = DispatchQueue(label: "shop.callbacks")
        let client = ShopClient(transport: StubTransport(), tokens: TokenStore(saved: "t0ken"), callbackQueue: queue)
        let cart = await withCheckedContinuation { continuation in
            client.cart { result in
                dispatchPrecondition(condition: .onQueue(queue))
                continuation.resume(returning: try? result.get())
            }
        }
        #expect(cart == .empty)
    }
}
