import NetToolbox
import Foundation
import NetCore
import NetPlugins
import Testing
import NetTestSupport

/// A token server in memory: issues "fresh-<n>" and accepts only issued tokens.
final class FakeTokenServer: Sendable {
    private let state = Locked((issued: Set<String>(), refreshes: 0, fetches: 0, failRefresh: false))

    var refreshes: Int { state.withLock { $0.refreshes } }
    var fetches: Int { state.withLock { $0.fetches } }
    func failRefreshes() { state.withLock { $0.failRefresh = true } }

    func issue(_ token: String) -> String {
        state.withLock { _ = $0.issued.insert(token) }
        return token
    }

    func initialToken() -> String {
        state.withLock { $0.fetches += 1 }
        return "stale"
    }

    func refresh() async throws -> String {
        await Task.yield()
        return try state.withLock { state in
            if state.failRefresh { throw NetworkError.invalidResponse(reason: "token endpoint said 500") }
            state.refreshes += 1
            let token = "fresh-\(state.refreshes)"
            state.issued.insert(token)
            return token
        }
    }

    func transport(acceptsOnlyIssued: Bool = true) -> StubTransport {
        StubTransport(
            behavior: .custom { request in
                let token = request.headers["Authorization"].map { String($0.dropFirst("Bearer ".count)) } ?? ""
                let ok = self.state.withLock { $0.issued.contains(token) } || !acceptsOnlyIssued
                return Response(statusCode: ok ? 200 : 401, data: Data(token.utf8), request: request)
            })
    }
}

/// Holds callers until `count` have arrived, then releases them all.
actor Barrier {
    private let count: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var arrived = 0

    init(count: Int) { self.count = count }

    func arrive() async {
        arrived += 1
        if arrived >= count {
            for continuation in waiting { continuation.resume() }
            waiting = []
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }
}

@Suite("AuthPlugin")
struct AuthPluginTests {
    @Test func attachesBearerTokenFromTheProviderOnce() async throws {
        let server = FakeTokenServer()
        let auth = AuthPlugin(token: { server.initialToken() }, refresh: { try await server.refresh() })
        let provider = Provider<TestTarget>(transport: server.transport(acceptsOnlyIssued: false), plugins: [auth])
        let first = try await provider.request(TestTarget())
        _ = try await provider.request(TestTarget())
        #expect(first.request.headers["Authorization"] == "Bearer stale")
        #expect(server.fetches == 1)
        #expect(server.refreshes == 0)
    }

    @Test func fiftyConcurrent401sCauseExactlyOneRefreshAndAllSucceed() async throws {
        let server = FakeTokenServer()
        let auth = AuthPlugin(token: { server.initialToken() }, refresh: { try await server.refresh() })
        // Every first attempt waits at the "server" until all 50 have arrived, so all 50 are
        // rejected together.
        let barrier = Barrier(count: 50)
        let inner = server.transport()
        let transport = stub { request in
            if request.attempt == 1 { await barrier.arrive() }
            return try await inner.send(request)
        }
        let provider = Provider<TestTarget>(transport: transport, plugins: [auth])
        let tokens = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<50 { group.addTask { try await provider.request(TestTarget()).string() ?? "" } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(tokens.count == 50)
        #expect(Set(tokens) == ["fresh-1"])
        #expect(server.refreshes == 1)
        #expect(auth.refreshCount == 1)
    }

    @Test func a401ForAnAlreadyReplacedTokenRetriesWithTheNewTokenWithoutRefreshing() async throws {
        let server = FakeTokenServer()
        let auth = AuthPlugin(token: { server.initialToken() }, refresh: { try await server.refresh() })
        let inner = server.transport()
        let transport = stub { request in
            // While the stale request is at the server, a login elsewhere installs a valid token.
            if request.attempt == 1 { auth.setToken(server.issue("from-login")) }
            return try await inner.send(request)
        }
        let response = try await Provider<TestTarget>(transport: transport, plugins: [auth]).request(TestTarget())
        #expect(response.string() == "from-login")
        #expect(response.request.attempt == 2)
        #expect(server.refreshes == 0)
    }

    @Test func aCurrentTokenRejectedAfterAnEarlierRefreshIsRefreshedAgain() async throws {
        let server = FakeTokenServer()
        let auth = AuthPlugin(token: { server.initialToken() }, refresh: { try await server.refresh() })
        let provider = Provider<TestTarget>(transport: server.transport(), plugins: [auth])
        _ = try await provider.request(TestTarget())  // stale → 401 → fresh-1
        #expect(server.refreshes == 1)
        auth.setToken("revoked")
        let response = try await provider.request(TestTarget())  // 401 → one more refresh
        #expect(response.string() == "fresh-2")
        #expect(server.refreshes == 2)
    }

    @Test func aRejectedNewTokenEndsWithThe401InsteadOfLooping() async throws {
        let server = FakeTokenServer()
        let refreshes = Counter()
        let auth = AuthPlugin(
            token: { "stale" },
            refresh: {
                refreshes.increment(); return "also-rejected"
            })
        let attempts = Counter()
        let transport = stub { request in
            attempts.increment()
            return Response(statusCode: 401, request: request)
        }
        _ = server
        let provider = Provider<TestTarget>(transport: transport, plugins: [auth], configuration: ProviderConfiguration(maxAttempts: 10))
        await #expect {
            _ = try await provider.request(TestTarget())
        } throws: { error in
            (error as? NetworkError)?.statusCode == 401
        }
        #expect(refreshes.count == 1)
        #expect(attempts.count == 2)
    }

    @Test func aFailedRefreshFailsEveryWaiterWithAPluginError() async throws {
        let server = FakeTokenServer()
        server.failRefreshes()
        let auth = AuthPlugin(token: { server.initialToken() }, refresh: { try await server.refresh() })
        let provider = Provider<TestTarget>(transport: server.transport(), plugins: [auth])
        let errors = await withTaskGroup(of: NetworkError?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do { _ = try await provider.request(TestTarget()); return nil } catch let error as NetworkError { return error } catch { return nil }
                }
            }
            return await group.reduce(into: [NetworkError?]()) { $0.append($1) }
        }
        for error in errors {
            guard case .pluginFailed(let plugin, let reason, _)? = error else {
                Issue.record("expected pluginFailed, got \(String(describing: error))")
                continue
            }
            #expect(plugin == "AuthPlugin")
            #expect(reason.contains("token endpoint said 500"))
        }
    }

    @Test func a401AcceptedByValidationIsRefreshedToo() async throws {
        let server = FakeTokenServer()
        let auth = AuthPlugin(token: { server.initialToken() }, refresh: { try await server.refresh() })
        var target = TestTarget()
        target.validation = .none
        let response = try await Provider<TestTarget>(transport: server.transport(), plugins: [auth]).request(target)
        #expect(response.statusCode == 200)
        #expect(server.refreshes == 1)
    }

    @Test func requestsWithTheirOwnHeaderOrExcludedAreLeftAlone() async throws {
        let auth = AuthPlugin(token: { "t" }, refresh: { "u" }, appliesTo: { $0.url.path != "/login" })
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [auth])
        var own = TestTarget()
        own.headers = ["Authorization": "Basic abc"]
        var login = TestTarget()
        login.path = "/login"
        #expect(try await provider.request(own).request.headers["Authorization"] == "Basic abc")
        #expect(try await provider.request(login).request.headers["Authorization"] == nil)
        #expect(try await provider.request(TestTarget()).request.headers["Authorization"] == "Bearer t")
    }

    @Test func aFailingTokenProviderFailsTheRequestClearly() async {
        struct Broken: Error {}
        let auth = AuthPlugin(token: { throw Broken() }, refresh: { "u" })
        await #expect {
            _ = try await Provider<TestTarget>(transport: StubTransport(), plugins: [auth]).request(TestTarget())
        } throws: { error in
            guard case .pluginFailed("AuthPlugin", let reason, let underlying)? = error as? NetworkError else { return false }
            // The token provider's own error comes back unchanged as the cause.
            return reason.contains("could not get a token") && underlying is Broken
        }
    }
}
