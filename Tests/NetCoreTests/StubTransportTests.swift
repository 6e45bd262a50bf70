import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("StubTransport")
struct StubTransportTests {
    @Test(".immediate answers with the target's sample response, marked .stub")
    func immediate() async throws {
        let provider = Provider<TestTarget>(transport: StubTransport(behavior: .immediate))
        let sample = SampleResponse(statusCode: 201, headers: ["ETag": "\"v1\""], data: Data("created".utf8))
        let response = try await provider.request(TestTarget(sampleResponse: sample))
        #expect(response.statusCode == 201)
        #expect(response.headers["etag"] == "\"v1\"")
        #expect(response.string() == "created")
        #expect(response.source == .stub)
        #expect(response.request.url.absoluteString == "https://api.example.com/items")
        #expect(response.metrics?.bytesReceived == 7)
    }

    @Test("the default sample response is 200 with an empty body")
    func defaultSample() async throws {
        enum Bare: TargetType {
            case ping
            var baseURL: URL { URL(string: "https://bare.example.com")! }
            var path: String { "ping" }
            var method: HTTPMethod { .head }
            var content: RequestContent { .plain }
        }
        let response = try await Provider<Bare>(transport: StubTransport()).request(.ping)
        #expect(response.statusCode == 200)
        #expect(response.data.isEmpty)
        #expect(response.source == .stub)
        #expect(Bare.ping.headers.isEmpty && Bare.ping.timeout == nil && Bare.ping.validation == .successCodes)
    }

    @Test(".delayed answers with the sample after the delay")
    func delayed() async throws {
        let provider = Provider<TestTarget>(transport: StubTransport(behavior: .delayed(.milliseconds(20))))
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await provider.request(TestTarget(sampleResponse: .json("{}")))
        #expect(clock.now - start >= .milliseconds(20))
        #expect(response.string() == "{}")
        #expect(response.source == .stub)
    }

    @Test(".delayed longer than the request's timeout ends in .timedOut")
    func delayedPastTimeout() async throws {
        let provider = Provider<TestTarget>(transport: StubTransport(behavior: .delayed(.seconds(10))))
        let clock = ContinuousClock()
        let start = clock.now
        let error = await failure(of: TestTarget(timeout: .milliseconds(50)), on: provider)
        #expect(error?.caseName == "timedOut")
        #expect(error?.isTransient == true)
        #expect(clock.now - start < .seconds(5), "the timeout, not the delay, ends the request")
    }

    @Test(".custom answers with the closure's response and sees the built request")
    func custom() async throws {
        let provider = Provider<TestTarget>(
            transport: StubTransport(
                behavior: .custom { request in
                    Response(statusCode: 200, data: Data("\(request.method) \(request.url.path)".utf8), request: request, source: .stub)
                }))
        let response = try await provider.request(TestTarget(path: "things/9", method: .patch))
        #expect(response.string() == "PATCH /things/9")
    }

    @Test(".custom errors: NetworkError is kept, anything else becomes .transport")
    func customErrors() async throws {
        struct Boom: Error {}
        let keeps = Provider<TestTarget>(transport: StubTransport(behavior: .custom { _ in throw NetworkError.dnsFailure(host: "x") }))
        #expect(await failure(of: TestTarget(), on: keeps)?.caseName == "dnsFailure")
        let wraps = Provider<TestTarget>(transport: StubTransport(behavior: .custom { _ in throw Boom() }))
        let error = await failure(of: TestTarget(), on: wraps)
        guard case .transport(let reason, _)? = error else {
            Issue.record("expected transport, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("Boom"))
    }

    @Test(
        "SampleResponse.failure makes the stub fail with that error, through the failure hooks",
        arguments: [NetworkError.connectionLost(reason: "reset by peer"), .timedOut, .dnsFailure(host: "api.example.com")])
    func sampleFailure(error expected: NetworkError) async throws {
        let recorder = Recorder()
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [RecordingPlugin("P", recorder)])
        let error = await failure(of: TestTarget(sampleResponse: .failure(expected)), on: provider)
        #expect(error?.caseName == expected.caseName)
        #expect(error?.description == expected.description)
        #expect(recorder.calls(of: "failure") == ["P.failure"])
    }

    @Test("SampleResponse.json sets the content type and status")
    func sampleJSON() {
        let sample = SampleResponse.json(#"{"a":1}"#, statusCode: 202)
        #expect(sample.statusCode == 202)
        #expect(sample.headers["Content-Type"] == "application/json")
        #expect(sample.data == Data(#"{"a":1}"#.utf8))
        #expect(sample.error == nil)
    }

    @Test("a stub can be called directly, without a provider")
    func directSend() async throws {
        let request = Request(url: URL(string: "https://api.example.com/x")!, target: TestTarget(sampleResponse: .json("[]")))
        let response = try await StubTransport().send(request)
        #expect(response.string() == "[]")
        #expect(response.source == .stub)
    }

    @Test("a request with a TLS policy fails closed on a transport that cannot enforce it")
    func tlsPolicyFailsClosed() async throws {
        var pinning = RecordingPlugin("Pinning", Recorder())
        pinning.onPrepare = { request in
            request.tls = TLSPolicy(pinnedKeyHashes: ["AAAA"])
            return .proceed
        }
        let log = TransportLog()
        let plain = Self.loggingStub(log, capabilities: [])
        let provider = Provider<TestTarget>(transport: plain, plugins: [pinning])
        let error = await failure(of: TestTarget(), on: provider)
        #expect(error?.caseName == "tlsPolicyUnsupported")
        #expect(error?.description.contains("api.example.com") == true)
        #expect(log.count == 0)

        let capable = Provider<TestTarget>(transport: StubTransport(), plugins: [pinning])
        let response = try await capable.request(TestTarget())
        #expect(response.request.tls?.pinnedKeyHashes == ["AAAA"])
    }

    @Test("a transport without progress reports still ends every transfer with completed == total")
    func finalProgressFromTheProvider() async throws {
        let body = Data(repeating: 7, count: 1_234)
        let silent = StubTransport(
            behavior: .custom { request in Response(statusCode: 200, data: Data(repeating: 1, count: 5_000), request: request) },
            capabilities: [])
        var target = TestTarget()
        target.method = .post
        target.content = .data(body, contentType: "application/octet-stream")
        var events: [TransferProgress] = []
        for await event in Provider<TestTarget>(transport: silent).transfer(target).events {
            if case .progress(let progress) = event { events.append(progress) }
        }
        #expect(
            events == [
                TransferProgress(direction: .upload, completedBytes: 1_234, totalBytes: 1_234),
                TransferProgress(direction: .download, completedBytes: 5_000, totalBytes: 5_000),
            ])
    }

    @Test("a request that would go through a proxy fails closed on a transport that cannot send through one")
    func proxyFailsClosed() async throws {
        struct UseProxy: Plugin {
            func prepare(_ request: inout Request) async throws -> PrepareAction {
                request.proxy = ProxyConfiguration(.http(host: "proxy.example", port: 3128))
                return .proceed
            }
        }
        let log = TransportLog()
        let plain = Self.loggingStub(log, capabilities: [.tlsPolicy])
        let error = await failure(of: TestTarget(), on: Provider<TestTarget>(transport: plain, plugins: [UseProxy()]))
        guard case .proxyFailed(let proxy, let reason, _)? = error else {
            Issue.record("expected proxyFailed, got \(String(describing: error))")
            return
        }
        #expect(proxy == "http://proxy.example:3128" && reason.contains("StubTransport"))
        #expect(log.count == 0, "never sent around the proxy")
        let direct = Provider<TestTarget>(transport: plain, configuration: ProviderConfiguration(proxy: .direct))
        _ = try await direct.request(TestTarget())
        #expect(log.count == 1, ".direct needs no proxy support")
    }

    /// A stub that records every request it is given and answers 200, claiming `capabilities`.
    static func loggingStub(_ log: TransportLog, capabilities: TransportCapabilities) -> StubTransport {
        StubTransport(
            behavior: .custom { request in
                log.append(request)
                return Response(statusCode: 200, request: request)
            }, capabilities: capabilities)
    }
}
