// Runs the plugins of the article "Writing a plugin" (their code is WritingAPluginArticle.swift)
// on httpbin-shaped stubs.
import NetToolbox
import Foundation
import NetCore
import Testing

@Suite("Article: Writing a plugin")
struct CustomPluginExample {
    @Test func prepareAddsATraceHeaderToTheRequestAsSent() async throws {
        let provider = Provider<HTTPBin>(transport: HTTPBinStub.transport, plugins: [TraceHeader()])
        let response = try await provider.request(.status(200))
        let trace = try #require(response.request.headers["X-Trace"])
        #expect(UUID(uuidString: trace) != nil)
        let echoed = try await provider.request(.get([:]), as: [String: String].self, atKeyPath: "headers")
        #expect(echoed["X-Trace"].flatMap(UUID.init(uuidString:)) != nil)
    }

    @Test func willSendStopsEveryRequestWhileOffline() async throws {
        let sent = Locked(0)
        let transport = StubTransport(
            behavior: .custom { request in
                sent.update { $0 += 1 }
                return Response(statusCode: 200, request: request)
            })
        let provider = Provider<HTTPBin>(transport: transport, plugins: [OfflineGuard(isOffline: { true })])
        await #expect {
            _ = try await provider.request(.status(200))
        } throws: { error in
            guard case NetworkError.stopped(let plugin, let reason) = error else { return false }
            return plugin == "OfflineGuard" && reason == "offline"
        }
        #expect(sent.current == 0)
    }

    @Test func failureRetriesTransientErrorsUntilTheThirdAttempt() async throws {
        let attempts = Locked<[Int]>([])
        let transport = StubTransport(
            behavior: .custom { request in
                attempts.update { $0.append(request.attempt) }
                if request.attempt < 3 { throw NetworkError.timedOut }
                return Response(statusCode: 200, request: request)
            })
        let provider = Provider<HTTPBin>(transport: transport, plugins: [OfflineGuard(isOffline: { false })])
        let response = try await provider.request(.status(200))
        #expect(response.request.attempt == 3)
        #expect(attempts.current == [1, 2, 3])
    }

    @Test func failureLeavesNonTransientErrorsAlone() async throws {
        let attempts = Locked(0)
        let transport = StubTransport(
            behavior: .custom { request in
                attempts.update { $0 += 1 }
                return Response(statusCode: 503, request: request)
            })
        let provider = Provider<HTTPBin>(transport: transport, plugins: [OfflineGuard(isOffline: { false })])
        await #expect {
            _ = try await provider.request(.status(503))
        } throws: { error in
            (error as? NetworkError)?.statusCode == 503
        }
        #expect(attempts.current == 1)
    }

    @Test func failReplacesAnErrorAndDidReceiveSeesEveryAttempt() async throws {
        let transport = StubTransport(behavior: .custom { request in Response(statusCode: 451, request: request) })
        let provider = Provider<HTTPBin>(transport: transport, plugins: [OfflineGuard(isOffline: { false })])
        await #expect {
            _ = try await provider.request(.status(451))
        } throws: { error in
            guard case NetworkError.stopped(_, let reason) = error else { return false }
            return reason == "not available in this region"
        }
    }
}
