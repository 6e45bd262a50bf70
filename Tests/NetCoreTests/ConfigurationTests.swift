import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("ProviderConfiguration")
struct ConfigurationTests {
    @Test("the configuration's base URL replaces the target's")
    func baseURLOverride() async throws {
        let request = try await sentRequest(
            for: TestTarget(path: "items/1"),
            configuration: ProviderConfiguration(baseURL: URL(string: "http://127.0.0.1:8080/staging"))
        )
        #expect(request.url.absoluteString == "http://127.0.0.1:8080/staging/items/1")
    }

    @Test("without a configured base URL the target's is used")
    func targetBaseURL() async throws {
        let request = try await sentRequest(for: TestTarget(baseURL: URL(string: "https://other.example.org/api")!, path: "x"))
        #expect(request.url.absoluteString == "https://other.example.org/api/x")
    }

    @Test("general headers are sent; a target's header of the same name wins, whatever its case")
    func generalHeadersMerge() async throws {
        let request = try await sentRequest(
            for: TestTarget(headers: ["X-APP": "target", "Accept": "text/plain"]),
            configuration: ProviderConfiguration(headers: ["x-app": "general", "X-Client": "netkit"])
        )
        #expect(request.headers["X-App"] == "target")
        #expect(request.headers["x-client"] == "netkit")
        #expect(request.headers["accept"] == "text/plain")
        #expect(request.headers.count == 3, "no duplicate field for X-App: \(request.headers)")
    }

    @Test("general query parameters are merged with the target's; the target's value wins")
    func generalQueryMerge() async throws {
        let request = try await sentRequest(
            for: TestTarget(content: .query(["v": "2", "q": "x"])),
            configuration: ProviderConfiguration(queryParameters: ["api_key": "k", "v": "1"])
        )
        #expect(rawQuery(request.url) == "api_key=k&v=2&q=x")
    }

    @Test("general query parameters are added to requests whose content has no query")
    func generalQueryOnBodyRequests() async throws {
        let request = try await sentRequest(
            for: TestTarget(method: .post, content: .json(["a": 1])),
            configuration: ProviderConfiguration(queryParameters: ["api_key": "k"])
        )
        #expect(rawQuery(request.url) == "api_key=k")
        #expect(bodyText(request) == #"{"a":1}"#)
    }

    @Test("the timeout is 60 s by default; the configuration and then the target override it")
    func timeouts() async throws {
        #expect(ProviderConfiguration().timeout == .seconds(60))
        let byDefault = try await sentRequest(for: TestTarget())
        #expect(byDefault.timeout == .seconds(60))
        let configured = try await sentRequest(for: TestTarget(), configuration: ProviderConfiguration(timeout: .seconds(5)))
        #expect(configured.timeout == .seconds(5))
        let targeted = try await sentRequest(for: TestTarget(timeout: .milliseconds(1500)), configuration: ProviderConfiguration(timeout: .seconds(5)))
        #expect(targeted.timeout == .milliseconds(1500))
    }

    @Test("maxAttempts below 1 is raised to 1, so a request is always sent once")
    func maxAttemptsAtLeastOne() async throws {
        #expect(ProviderConfiguration(maxAttempts: 0).maxAttempts == 1)
        let log = TransportLog()
        var retry = RecordingPlugin("Retry", Recorder())
        retry.onSucceed = { _, _ in .retry(after: .zero) }
        let provider = Provider<TestTarget>(
            transport: StubTransport.counting(log), plugins: [retry],
            configuration: ProviderConfiguration(maxAttempts: -4))
        _ = try await provider.request(TestTarget())
        #expect(log.count == 1)
    }

    @Test("the configuration's JSON decoder decodes request(_:as:)")
    func jsonDecoderIsUsed() async throws {
        struct Profile: Decodable { let displayName: String }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let provider = Provider<TestTarget>(transport: StubTransport(), configuration: ProviderConfiguration(jsonDecoder: decoder))
        let profile = try await provider.request(TestTarget(sampleResponse: .json(#"{"display_name": "Ada"}"#)), as: Profile.self)
        #expect(profile.displayName == "Ada")
    }

    @Test("the parameter encoding's array and bool styles apply to query and form")
    func parameterEncodingStyles() async throws {
        let configuration = ProviderConfiguration(parameterEncoding: ParameterEncoding(arrayStyle: .repeatedKeys, boolStyle: .numeric))
        let query = try await sentRequest(for: TestTarget(content: .query(["t": ["a", "b"], "on": true])), configuration: configuration)
        #expect(rawQuery(query.url) == "t=a&t=b&on=1")
        let form = try await sentRequest(
            for: TestTarget(method: .post, content: .form(["t": ["a", "b"], "on": false])),
            configuration: ProviderConfiguration(parameterEncoding: ParameterEncoding(arrayStyle: .indexed)))
        #expect(bodyText(form) == "t%5B0%5D=a&t%5B1%5D=b&on=false")
    }
}
