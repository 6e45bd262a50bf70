import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

@Suite("MutationPlugin")
struct MutationPluginTests {
    @Test func asyncRequestMutationSignsAndRewritesBeforeSending() async throws {
        let sent = Lines()
        let transport = stub { request in
            sent.sink("\(request.url.absoluteString) \(request.headers["X-Signature"] ?? "-")")
            return Response(statusCode: 200, request: request)
        }
        let signer = MutationPlugin(request: { request in
            await Task.yield()
            request.headers["X-Signature"] = "sig-\(request.method.rawValue)-\(request.url.path)"
        })
        let mirror = MutationPlugin.rewritingURL { url in
            URL(string: url.absoluteString.replacingOccurrences(of: "api.example.com", with: "mirror.example.com"))!
        }
        _ = try await Provider<TestTarget>(transport: transport, plugins: [signer, mirror]).request(TestTarget())
        #expect(sent.all == ["https://mirror.example.com/items sig-GET-/items"])
    }

    @Test func addingHeadersSeesTheRequest() async throws {
        let plugin = MutationPlugin.addingHeaders { request in ["X-Attempt": "\(request.attempt)", "X-Trace": "t1"] }
        let response = try await Provider<TestTarget>(transport: StubTransport(), plugins: [plugin]).request(TestTarget())
        #expect(response.request.headers["X-Attempt"] == "1" && response.request.headers["X-Trace"] == "t1")
    }

    @Test func aThrowingRequestMutationFailsWithoutSending() async {
        struct NoKey: Error {}
        let sent = Counter()
        let transport = stub { request in
            sent.increment(); return Response(statusCode: 200, request: request)
        }
        let plugin = MutationPlugin(name: "Signer", request: { _ in throw NoKey() })
        await #expect {
            _ = try await Provider<TestTarget>(transport: transport, plugins: [plugin]).request(TestTarget())
        } throws: { error in
            guard case .pluginFailed("Signer", let reason, let underlying)? = error as? NetworkError else { return false }
            return reason.contains("NoKey") && (error as? NetworkError)?.underlyingError is NoKey && underlying is NoKey
        }
        #expect(sent.count == 0)
    }

    @Test func resultMutationReplacesResultsAndRecoversFailures() async throws {
        let unwrap = MutationPlugin.mappingResponses { response in
            var copy = response
            copy.data = Data("unwrapped".utf8)
            return copy
        }
        let thief = MutationPlugin(result: { result, request in
            guard case .failure(.unacceptableStatus(let response)) = result, response.statusCode == 404 else { return result }
            return .success(Response(statusCode: 200, data: Data("[]".utf8), request: request))
        })
        var missing = TestTarget()
        missing.sampleResponse = SampleResponse(statusCode: 404)
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [thief, unwrap])
        #expect(try await provider.request(TestTarget()).string() == "unwrapped")
        #expect(try await provider.request(missing).string() == "unwrapped")
        let alone = Provider<TestTarget>(transport: StubTransport(), plugins: [thief])
        #expect(try await alone.request(missing).string() == "[]")
    }
}
