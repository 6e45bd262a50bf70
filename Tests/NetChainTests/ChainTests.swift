import Foundation
import NetChain
import NetCore
import Testing
import NetTestSupport

@Suite("Chains of dependent requests")
struct ChainTests {
    let recorder = PathRecorder()
    var provider: Provider<API> { Provider(transport: StubTransport(), plugins: [recorder]) }

    @Test("Variadic: each step decodes the previous response and picks the next target")
    func variadicChainDecodesBetweenSteps() async throws {
        let responses = try await Chain.run(
            provider, .register(name: "ada"),
            { previous in .profile(id: try previous.decode(Account.self).id) },
            { previous in
                let profile = try previous.decode(Profile.self)
                return profile.hasAvatar ? .avatar(id: profile.id) : nil
            })
        #expect(responses.count == 3)
        #expect(recorder.sent == ["/register", "/users/u-42", "/users/u-42/avatar"])
        #expect(responses[2].data == Data([0x89, 0x50]))
    }

    @Test("Fluent: building sends nothing; run() sends every step in order")
    func fluentChainIsLazy() async throws {
        let chain = Chain(provider, .register(name: "ada"))
            .then { previous in .profile(id: try previous.decode(Account.self).id) }
            .then { previous in .avatar(id: try previous.decode(Profile.self).id) }
        #expect(recorder.sent.isEmpty)
        #expect(chain.steps.count == 2)
        let responses = try await chain.run()
        #expect(responses.map(\.request.url.path) == ["/register", "/users/u-42", "/users/u-42/avatar"])
        // A value: running it again sends the same requests again.
        try await chain.run()
        #expect(recorder.sent.count == 6)
    }

    @Test("A final step receives the last response and produces the chain's value")
    func finalStepProducesValue() async throws {
        let name = try await Chain(provider, .register(name: "ada"))
            .then { .profile(id: try $0.decode(Account.self).id) }
            .run { last in try last.decode(Profile.self).name }
        #expect(name == "Ada")
    }

    @Test("A step returning nil ends the chain successfully and later steps are not called")
    func nilEndsTheChain() async throws {
        let later = Counter()
        let responses = try await Chain(provider, .register(name: "ada"))
            .then { _ in nil }
            .then { _ in
                later.increment(); return .broken
            }
            .run()
        #expect(responses.count == 1)
        #expect(later.count == 0)
        #expect(recorder.sent == ["/register"])
    }

    @Test(
        "A failed request at any position ends the chain with its index and the responses so far",
        arguments: [0, 1, 2])
    func failedRequestAtEachPosition(position: Int) async throws {
        let later = Counter()
        let targets: [API] = [.register(name: "ada"), .profile(id: "u-42"), .avatar(id: "u-42")]
        let target: @Sendable (Int) -> API = { step in step == position ? .broken : targets[step] }
        let chain = Chain(provider, target(0))
            .then { _ in target(1) }
            .then { _ in target(2) }
            .then { _ in
                later.increment(); return nil
            }
        let error = try await #require(throws: ChainError.self) { try await chain.run() }
        #expect(error.stepIndex == position)
        #expect(error.stage == .request)
        #expect(error.responses.count == position)
        #expect(error.networkError.statusCode == 500)
        #expect(error.target?.contains("broken") == true)
        #expect(later.count == 0)
        #expect(recorder.sent.count == position + 1)
        #expect(error.description.contains("step \(position)"))
    }

    @Test(
        "A step that throws at any position ends the chain there; later steps are never called",
        arguments: [1, 2, 3])
    func throwingStepAtEachPosition(position: Int) async throws {
        let later = Counter()
        let step: @Sendable (Int) -> Chain<API>.Step = { index in
            { _ in
                if index == position { throw StepFailure() }
                if index > position { later.increment() }
                return .friend(index)
            }
        }
        let error = try await #require(throws: ChainError.self) {
            try await Chain.run(provider, .register(name: "ada"), step(1), step(2), step(3), step(4))
        }
        #expect(error.stepIndex == position)
        #expect(error.stage == .step)
        #expect(error.underlying is StepFailure)
        #expect(error.responses.count == position)
        #expect(later.count == 0)
        #expect(recorder.sent.count == position)
    }

    @Test("A decoding failure in a step is reported with the decoding error")
    func decodingFailureInStep() async throws {
        let error = try await #require(throws: ChainError.self) {
            try await Chain(provider, .avatar(id: "x")).then { .profile(id: try $0.decode(Account.self).id) }.run()
        }
        #expect(error.stepIndex == 1)
        guard case .decodingFailed? = error.underlying as? NetworkError else {
            Issue.record("expected a decoding failure, got \(error.underlying)")
            return
        }
    }

    @Test("An error thrown by the final step is reported after the last step")
    func finalStepFailure() async throws {
        let error = try await #require(throws: ChainError.self) {
            try await Chain(provider, .register(name: "ada")).then { _ in .avatar(id: "u-42") }
                .run { last in try last.decode(Profile.self) }
        }
        #expect(error.stepIndex == 2)
        #expect(error.stage == .finally)
        #expect(error.responses.count == 2)
    }

    @Test("Cancelling the calling task stops the chain at the current step")
    func cancellationStopsAtCurrentStep() async throws {
        let (started, signal) = AsyncStream<String>.makeStream()
        let later = Counter()
        let transport = StubTransport(
            behavior: .custom { request in
                signal.yield(request.url.path)
                if request.url.path.hasPrefix("/users") { try await Task.sleep(for: .seconds(3600)) }
                let sample = request.target.sampleResponse
                return Response(statusCode: sample.statusCode, data: sample.data, request: request)
            })
        let chain = Chain(Provider<API>(transport: transport), .register(name: "ada"))
            .then { .profile(id: try $0.decode(Account.self).id) }
            .then { _ in
                later.increment(); return .avatar(id: "u-42")
            }
        let task = Task { try await chain.run() }
        for await path in started where path == "/users/u-42" { break }
        task.cancel()
        let error = try await #require(throws: ChainError.self) { try await task.value }
        #expect(error.isCancellation)
        #expect(error.stepIndex == 1)
        #expect(error.responses.count == 1)
        #expect(later.count == 0)
    }

    @Test("A chain value is Sendable and can run in another task")
    func chainIsSendable() async throws {
        let chain = Chain(provider, .register(name: "ada")).then { _ in .profile(id: "u-1") }
        let responses = try await Task.detached { try await chain.run() }.value
        #expect(responses.count == 2)
    }
}
