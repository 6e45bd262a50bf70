import Foundation
import NetCore
import NetTestSupport
import Testing

/// The names a Moya codebase already uses: response filters, a response made from a status and
/// a body, and `buildRequest`.
@Suite("Moya names")
struct MoyaNamesTests {
    struct Signer: Plugin {
        func prepare(_ request: inout Request) async throws -> PrepareAction {
            request.headers["X-Signature"] = "signed:\(request.url.path)"
            return .proceed
        }
    }

    @Test("Response(statusCode:data:) needs no request")
    func responseFromStatusAndData() {
        let response = Response(statusCode: 204, data: Data("x".utf8))
        #expect(response.statusCode == 204)
        #expect(response.string() == "x")
        #expect(response.source == .stub)
    }

    @Test("filter(statusCodes:), filter(statusCode:) and the two success filters pass or throw .unacceptableStatus with the response")
    func filters() throws {
        let ok = Response(statusCode: 200, data: Data())
        let moved = Response(statusCode: 301, data: Data())
        let missing = Response(statusCode: 404, data: Data("gone".utf8))
        #expect(try ok.filterSuccessfulStatusCodes().statusCode == 200)
        #expect(try moved.filterSuccessfulStatusAndRedirectCodes().statusCode == 301)
        #expect(try missing.filter(statusCode: 404).statusCode == 404)
        #expect(try missing.filter(statusCodes: 400..<500).statusCode == 404)
        #expect(try missing.filter(statusCodes: 400...).statusCode == 404)
        let cases: [(Response, @Sendable (Response) throws(NetworkError) -> Response)] = [
            (moved, { response throws(NetworkError) in try response.filterSuccessfulStatusCodes() }),
            (missing, { response throws(NetworkError) in try response.filterSuccessfulStatusAndRedirectCodes() }),
            (ok, { response throws(NetworkError) in try response.filter(statusCode: 201) }),
            (missing, { response throws(NetworkError) in try response.filter(statusCodes: 200...299) }),
        ]
        for (response, filter) in cases {
            do {
                _ = try filter(response)
                Issue.record("\(response.statusCode) passed")
            } catch {
                guard case .unacceptableStatus(let kept) = error else {
                    Issue.record("\(error)")
                    continue
                }
                #expect(kept.statusCode == response.statusCode)
                #expect(kept.data == response.data)
            }
        }
    }

    @Test("buildRequest returns the request after every prepare and sends nothing")
    func buildRequest() async throws {
        let log = TransportLog()
        let provider = Provider<TestTarget>(
            transport: StubTransport.counting(log), plugins: [Signer()],
            configuration: ProviderConfiguration(headers: ["X-App": "1"], queryParameters: ["v": "2"]))
        let request = try await provider.buildRequest(TestTarget(path: "items/7"))
        #expect(request.url.absoluteString == "https://api.example.com/items/7?v=2")
        #expect(request.headers["X-App"] == "1")
        #expect(request.headers["X-Signature"] == "signed:/items/7")
        #expect(log.count == 0)
    }

    @Test("buildRequest fails as the send would: a header with CR/LF, a target that makes no URL")
    func buildRequestFails() async throws {
        let provider = Provider<TestTarget>(transport: StubTransport())
        let injected = await #expect(throws: NetworkError.self) {
            try await provider.buildRequest(TestTarget(headers: ["X-Bad": "a\r\nb"]))
        }
        #expect(injected?.code == .invalidRequest)
        let badURL = await #expect(throws: NetworkError.self) {
            try await provider.buildRequest(TestTarget(baseURL: URL(string: "ftp://nope")!))
        }
        #expect(badURL?.code == .invalidURL)
    }
}

@Suite("Decoding an empty body")
struct EmptyBodyDecodingTests {
    struct Item: Decodable { var id: Int }
    /// Moya's specs decode an empty body into a type whose properties are all optional.
    struct Issue: Decodable, Equatable {
        var title: String?
        var body: String?
    }

    @Test("As in Moya, failsOnEmptyData: false decodes an empty body from {} then from [{}]")
    func emptyBodyLikeMoya() throws {
        let empty = Response(statusCode: 204, data: Data())
        #expect(try empty.decode(Issue.self, failsOnEmptyData: false) == Issue())
        #expect(try empty.decode([Issue].self, failsOnEmptyData: false) == [Issue()])
        #expect(try empty.decode([String: Int].self, failsOnEmptyData: false) == [:])
        #expect(try empty.decode(Issue.self, atKeyPath: "data.issue", failsOnEmptyData: false) == Issue())
    }

    @Test("failsOnEmptyData: false still gives nil for an optional, and fails for a type {} and [{}] cannot fill")
    func emptyBodyOptionalAndRequired() throws {
        let empty = Response(statusCode: 204, data: Data())
        #expect(try empty.decode(Item?.self, failsOnEmptyData: false) == nil)
        #expect(try empty.decode(Issue?.self, failsOnEmptyData: false) == nil)
        let error = #expect(throws: NetworkError.self) { try empty.decode(Item.self, failsOnEmptyData: false) }
        #expect(error?.code == .decodingFailed)
        #expect(error?.response?.statusCode == 204)
        #expect(throws: NetworkError.self) { try empty.decode([Item].self, failsOnEmptyData: false) }
    }

    @Test("By default an empty body fails to decode, also into an optional; a full body ignores the flag")
    func emptyBodyFailsByDefault() throws {
        let empty = Response(statusCode: 204, data: Data())
        #expect(throws: NetworkError.self) { try empty.decode(Item?.self) }
        #expect(throws: NetworkError.self) { try empty.decode(Issue.self) }
        let full = Response(statusCode: 200, data: Data(#"{"id": 3}"#.utf8))
        #expect(try full.decode(Item.self, failsOnEmptyData: false).id == 3)
    }
}
