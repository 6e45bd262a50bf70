// Mirrors the README section "Stubbing in tests"; keep them in sync.
import NetToolbox
import Foundation
import NetCore
import Testing

@Suite("README: Stubbing in tests")
struct StubbingExample {
    // README code; `…` filled in with one endpoint.
    enum API: TargetType {
        case user
        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String { "/user" }
        var method: HTTPMethod { .get }
        var content: RequestContent { .plain }
        var sampleResponse: SampleResponse { .json(#"{"id": 1, "name": "Ada"}"#) }
    }

    /// The prose's `SampleResponse.failure(.timedOut)`.
    enum Offline: TargetType {
        case user
        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String { "/user" }
        var method: HTTPMethod { .get }
        var content: RequestContent { .plain }
        var sampleResponse: SampleResponse { .failure(.timedOut) }
    }

    struct User: Decodable, Equatable {
        var id: Int
        var name: String
    }

    /// Records which hooks ran, to show that stubbed requests run every plugin hook.
    final class HookRecorder: Plugin {
        let hooks = Locked<[String]>([])
        func prepare(_ request: inout Request) async throws -> PrepareAction { hooks.update { $0.append("prepare") }; return .proceed }
        func willSend(_ request: Request) async -> SendAction { hooks.update { $0.append("willSend") }; return .proceed }
        func succeed(_ response: Response, for request: Request) async -> SucceedAction { hooks.update { $0.append("succeed") }; return .proceed }
        func failure(_ error: NetworkError, for request: Request) async -> FailureAction { hooks.update { $0.append("failure") }; return .proceed }
        func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> {
            hooks.update { $0.append("process") }
            return result
        }
    }

    @Test func immediateStubAnswersWithTheSampleResponseAndRunsEveryHook() async throws {
        let recorder = HookRecorder()
        let provider = Provider<API>(transport: StubTransport(behavior: .immediate), plugins: [recorder])
        let response = try await provider.request(.user)
        #expect(try response.decode(User.self) == User(id: 1, name: "Ada"))
        #expect(response.source == .stub)
        #expect(recorder.hooks.current == ["prepare", "willSend", "succeed", "process"])
    }

    @Test func delayedStubAnswersTheSameSampleLater() async throws {
        let provider = Provider<API>(transport: StubTransport(behavior: .delayed(.milliseconds(50))))
        let clock = ContinuousClock()
        let start = clock.now
        let user = try await provider.request(.user, as: User.self)
        #expect(user == User(id: 1, name: "Ada"))
        #expect(clock.now - start >= .milliseconds(50))
    }

    @Test func customStubAnswersWhatTheClosureReturns() async throws {
        let custom = StubTransport(
            behavior: .custom { request in Response(statusCode: 503, request: request) })
        let provider = Provider<API>(transport: custom)
        await #expect {
            _ = try await provider.request(.user)
        } throws: { error in
            guard case NetworkError.unacceptableStatus(let response) = error else { return false }
            return response.statusCode == 503
        }
    }

    @Test func failureSampleMakesTheStubFail() async throws {
        let provider = Provider<Offline>(transport: StubTransport(behavior: .immediate))
        await #expect {
            _ = try await provider.request(.user)
        } throws: { error in
            guard case NetworkError.timedOut = error else { return false }
            return true
        }
    }
}

extension StubbingExample {
    /// The README block, compiled (the tests above run the same stubs).
    static func readmeStubs() {
        enum API: TargetType {
            case user
            var baseURL: URL { URL(string: "https://api.example.com")! }
            var path: String { "/user" }
            var method: HTTPMethod { .get }
            var content: RequestContent { .plain }
            var sampleResponse: SampleResponse { .json(#"{"id": 1, "name": "Ada"}"#) }
        }
        // or .delayed(.milliseconds(50))
        let provider = Provider<API>(transport: StubTransport(behavior: .immediate))
        let custom = StubTransport(
            behavior: .custom { request in Response(statusCode: 503, request: request) })
        _ = (provider, custom)
    }
}
