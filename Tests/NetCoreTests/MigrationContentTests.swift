import Foundation
import NetCore
import NetTestSupport
import Testing

/// What a Moya/Alamofire codebase relies on: URLEncoding.default's method-dependent placement,
/// heterogeneous parameters, and a provider-wide default validation.
@Suite("Migration: parameters and validation")
struct MigrationContentTests {
    @Test(
        ".parameters go in the query for GET, HEAD and DELETE, in a form body otherwise",
        arguments: [
            (HTTPMethod.get, true), (.head, true), (.delete, true), (.post, false), (.put, false), (.patch, false),
        ])
    func parametersFollowTheMethod(method: HTTPMethod, inQuery: Bool) async throws {
        let request = try await sentRequest(for: TestTarget(method: method, content: .parameters(["q": "swift", "page": 2])))
        if inQuery {
            #expect(request.url.query == "q=swift&page=2")
            #expect(request.body.inMemoryData?.isEmpty ?? true)
        } else {
            #expect(request.url.query == nil)
            #expect(bodyText(request) == "q=swift&page=2")
            #expect(request.headers["Content-Type"] == "application/x-www-form-urlencoded; charset=utf-8")
        }
    }

    @Test("Parameters(any:) takes [String: Any] with nested values and names the key it cannot carry")
    func heterogeneousParameters() throws {
        let legacy: [String: Any] = ["page": 2, "all": true, "ratio": 0.5, "filter": ["tag": "swift", "ids": [1, 2]], "none": NSNull()]
        let parameters = try Parameters(any: legacy)
        #expect(parameters.map(\.key) == ["all", "filter", "none", "page", "ratio"])
        #expect(parameters["all"] == .bool(true))
        #expect(parameters["page"] == .int(2))
        #expect(parameters["filter"] == .dictionary(["ids": [1, 2], "tag": "swift"]))
        #expect(throws: NetworkError.self) { try Parameters(any: ["when": Date()]) }
        do {
            _ = try Parameters(any: ["outer": ["inner": [Data()]]])
        } catch {
            #expect(error.code == .encodingFailed)
            #expect(error.description.contains("outer.inner[0]"), "\(error)")
        }
        #expect(throws: NetworkError.self) { try Parameters(any: ["nan": Double.nan]) }
    }

    @Test("Parameters encode as a JSON object, so .json(Parameters(any:)) sends a heterogeneous body")
    func parametersAsJSON() async throws {
        let parameters = try Parameters(any: ["name": "Ann", "age": 7, "tags": ["a"]])
        let request = try await sentRequest(for: TestTarget(method: .post, content: .json(parameters)))
        let object = try JSONSerialization.jsonObject(with: try #require(request.body.inMemoryData)) as? [String: Any]
        #expect(object?["name"] as? String == "Ann")
        #expect(object?["age"] as? Int == 7)
        #expect(object?["tags"] as? [String] == ["a"])
    }

    @Test("defaultValidation replaces the protocol's default and leaves declared validations alone")
    func defaultValidation() async throws {
        var configuration = ProviderConfiguration()
        configuration.defaultValidation = Validation.none
        let provider = Provider<TestTarget>(transport: StubTransport(), configuration: configuration)
        let notFound = SampleResponse(statusCode: 404)
        #expect(try await provider.request(TestTarget(sampleResponse: notFound)).statusCode == 404)
        let strict = TestTarget(validation: .codes(Set(200...299)), sampleResponse: notFound)
        await #expect(throws: NetworkError.self) { try await provider.request(strict) }
        #expect(configuration.validation(for: TestTarget(validation: .successAndRedirectCodes)) == .successAndRedirectCodes)
        let plain = Provider<TestTarget>(transport: StubTransport())
        await #expect(throws: NetworkError.self) { try await plain.request(TestTarget(sampleResponse: notFound)) }
    }
}

@Suite("StubTransport per target")
struct PerTargetStubTransportTests {
    @Test("Each target is stubbed immediately, after a delay, or sent to the network transport")
    func choosesPerTarget() async throws {
        let log = TransportLog()
        let transport = StubTransport(network: StubTransport.counting(log, answer: { Response(statusCode: 201, request: $0) })) { target in
            switch (target as? TestTarget)?.name {
            case "stubbed": .immediate
            case "slow": .delayed(.milliseconds(30))
            default: nil
            }
        }
        let provider = Provider<AnyTarget>(transport: transport)
        let stubbed = try await provider.request(AnyTarget(TestTarget(name: "stubbed", sampleResponse: .json("{}"))))
        #expect(stubbed.source == .stub)
        #expect(stubbed.statusCode == 200)
        let start = ContinuousClock.now
        _ = try await provider.request(AnyTarget(TestTarget(name: "slow")))
        #expect(ContinuousClock.now - start >= .milliseconds(30))
        #expect(log.count == 0)
        let sent = try await provider.request(AnyTarget(TestTarget(name: "live")))
        #expect(sent.statusCode == 201)
        #expect(log.count == 1)
    }

    @Test("A streamed call streams through the network transport when its target is not stubbed, and streams the sample when it is")
    func streamsPerTarget() async throws {
        let network = StubTransport(behavior: .custom { Response(statusCode: 200, data: Data("live".utf8), request: $0) })
        let transport = StubTransport(network: network) { target in
            (target as? TestTarget)?.name == "stubbed" ? .immediate : nil
        }
        let provider = Provider<TestTarget>(transport: transport)
        var live = Data()
        for try await chunk in provider.stream(TestTarget(name: "live")) { live.append(chunk) }
        #expect(String(decoding: live, as: UTF8.self) == "live")
        var stubbed = Data()
        for try await chunk in provider.stream(TestTarget(name: "stubbed", sampleResponse: .json(#"{"a":1}"#))) { stubbed.append(chunk) }
        #expect(String(decoding: stubbed, as: UTF8.self) == #"{"a":1}"#)
    }
}

@Suite("Per-target encoding")
struct PerTargetEncodingTests {
    struct Event: Encodable, Sendable { var at: Date }

    /// A target with its own encoders.
    struct Legacy: TargetType {
        var method: HTTPMethod = .get
        var content: RequestContent
        var baseURL: URL { URL(string: "https://legacy.example.com")! }
        var path: String { "events" }
        var options: TargetOptions {
            let encoder = JSONEncoder()
            encoder.dateEncodingStrategy = .secondsSince1970
            return TargetOptions(jsonEncoder: encoder, parameterEncoding: ParameterEncoding(boolStyle: .numeric))
        }
    }

    @Test("A target's own JSONEncoder and ParameterEncoding win over the provider's")
    func targetEncodersWin() async throws {
        let log = TransportLog()
        let provider = Provider<Legacy>(transport: StubTransport.counting(log))
        _ = try await provider.request(Legacy(method: .post, content: .json(Event(at: Date(timeIntervalSince1970: 10)))))
        _ = try await provider.request(Legacy(content: .query(["all": true])))
        let requests = log.all
        #expect(bodyText(requests[0]) == #"{"at":10}"#)
        #expect(requests[1].url.query == "all=1")
        // Other targets keep the provider's.
        let plain = try await sentRequest(for: TestTarget(content: .query(["all": true])))
        #expect(plain.url.query == "all=true")
    }

    @Test("An AnyTarget carries its wrapped target's options: encoders, size limit and priority")
    func anyTargetForwardsOptions() async throws {
        struct Limited: TargetType {
            var baseURL: URL { URL(string: "https://limited.example.com")! }
            var path: String { "big" }
            var method: HTTPMethod { .get }
            var content: RequestContent { .plain }
            var options: TargetOptions { TargetOptions(maxResponseBytes: 16, priority: .high) }
        }
        #expect(AnyTarget(Limited()).options.priority == .high)
        let log = TransportLog()
        let provider = Provider<AnyTarget>(transport: StubTransport.counting(log))
        _ = try await provider.request(AnyTarget(Legacy(content: .query(["all": true]))))
        #expect(log.all[0].url.query == "all=1")
        _ = try await provider.request(AnyTarget(Limited()))
        #expect(log.all[1].limits.maxBodyBytes == 16)
    }
}
