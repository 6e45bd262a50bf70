import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("Plugin decisions")
struct PluginDecisionTests {
    // MARK: prepare

    @Test("prepare answering .respond skips the transport, later prepares, willSend and succeed, but runs process")
    func respondSkipsTransport() async throws {
        let recorder = Recorder()
        let log = TransportLog()
        var a = RecordingPlugin("A", recorder)
        a.onPrepare = { request in
            .respond(Response(statusCode: 200, data: Data("cached".utf8), request: request, source: .cache))
        }
        let provider = Provider<TestTarget>(
            transport: StubTransport.counting(log),
            plugins: [a, RecordingPlugin("B", recorder)]
        )
        let response = try await provider.request(TestTarget())

        #expect(log.count == 0)
        #expect(response.string() == "cached")
        #expect(response.source == .cache)
        #expect(recorder.all == ["A.prepare", "A.process", "B.process"])
    }

    @Test(".provisional responses reach responses(_:) before the final one, and the request is still sent")
    func provisionalThenFinal() async throws {
        let recorder = Recorder()
        let log = TransportLog()
        var a = RecordingPlugin("A", recorder)
        a.onPrepare = { request in
            .provisional(Response(statusCode: 200, data: Data("stale".utf8), request: request, source: .cache))
        }
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [a, RecordingPlugin("B", recorder)])
        var received: [Response] = []
        for try await response in provider.responses(TestTarget(sampleResponse: SampleResponse(data: Data("fresh".utf8)))) {
            received.append(response)
        }
        #expect(received.map { $0.string() } == ["stale", "fresh"])
        #expect(received.map(\.source) == [.cache, .stub])
        #expect(log.count == 1)
        #expect(recorder.calls(of: "prepare") == ["A.prepare", "B.prepare"], "provisional still runs later prepares")
    }

    @Test("responses(_:) yields only the final response when no plugin offers a provisional one")
    func responsesWithoutProvisional() async throws {
        let provider = Provider<TestTarget>(transport: StubTransport())
        var received: [String?] = []
        for try await response in provider.responses(TestTarget(sampleResponse: .json("{}"))) {
            received.append(response.string())
        }
        #expect(received == ["{}"])
    }

    @Test("responses(_:) throws the request's NetworkError after provisional responses")
    func responsesThrowsFinalError() async throws {
        let recorder = Recorder()
        var a = RecordingPlugin("A", recorder)
        a.onPrepare = { request in .provisional(Response(statusCode: 200, request: request, source: .cache)) }
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [a])
        var count = 0
        do {
            for try await _ in provider.responses(TestTarget(sampleResponse: .failure(.connectionLost(reason: "reset")))) {
                count += 1
            }
            Issue.record("the stream should throw")
        } catch let error as NetworkError {
            #expect(error.caseName == "connectionLost")
        }
        #expect(count == 1)
    }

    @Test("cancelling the task that iterates responses(_:) cancels the request; process sees .cancelled")
    func cancellingResponsesConsumerCancelsRequest() async throws {
        let recorder = Recorder()
        let processed = ErrorLog()
        let done = Signal()
        var a = RecordingPlugin("A", recorder)
        a.onPrepare = { request in .provisional(Response(statusCode: 200, data: Data("stale".utf8), request: request, source: .cache)) }
        a.onProcess = { result, _ in
            processed.append(result.error)
            done.fire()
            return result
        }
        let provider = Provider<TestTarget>(transport: StubTransport(behavior: .delayed(.seconds(10))), plugins: [a])
        let gotProvisional = Signal()
        let consumer = Task {
            var seen: [String?] = []
            for try await response in provider.responses(TestTarget()) {
                seen.append(response.string())
                gotProvisional.fire()
            }
            return seen
        }
        await gotProvisional.wait()
        consumer.cancel()
        await done.wait()
        #expect(processed.all.map { $0?.caseName } == ["cancelled"])
        _ = await consumer.result
    }

    @Test("a NetworkError thrown in prepare fails the request as it is; nothing is sent and process runs")
    func networkErrorThrownInPrepare() async throws {
        let recorder = Recorder()
        let log = TransportLog()
        var a = RecordingPlugin("A", recorder)
        a.onPrepare = { _ in throw NetworkError.noCachedResponse }
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [a, RecordingPlugin("B", recorder)])
        let error = await failure(of: TestTarget(), on: provider)
        #expect(error?.caseName == "noCachedResponse")
        #expect(log.count == 0)
        #expect(recorder.all == ["A.prepare", "A.process", "B.process"])
    }

    @Test("another error thrown in prepare becomes pluginFailed naming the plugin")
    func otherErrorThrownInPrepare() async throws {
        struct TokenExpired: Error {}
        let recorder = Recorder()
        var auth = RecordingPlugin("Auth", recorder)
        auth.onPrepare = { _ in throw TokenExpired() }
        let log = TransportLog()
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [auth])
        let error = await failure(of: TestTarget(), on: provider)
        guard case .pluginFailed(let plugin, let reason, _)? = error else {
            Issue.record("expected pluginFailed, got \(String(describing: error))")
            return
        }
        #expect(plugin == "Auth")
        #expect(reason.contains("TokenExpired"))
        #expect(log.count == 0)
    }

    // MARK: willSend

    @Test(".stop yields stopped(plugin:reason:) naming the plugin; the transport is never called; process runs")
    func stopPreventsSending() async throws {
        let recorder = Recorder()
        let log = TransportLog()
        var gate = RecordingPlugin("Gate", recorder)
        gate.onWillSend = { _ in .stop(reason: "offline") }
        var late = RecordingPlugin("Late", recorder)
        late.onWillSend = { _ in .stop(reason: "second") }
        let processed = TransportLog()
        var observer = RecordingPlugin("Observer", recorder)
        observer.onProcess = { result, request in
            processed.append(request)
            return result
        }
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [observer, gate, late])
        let error = await failure(of: TestTarget(), on: provider)

        guard case .stopped(let plugin, let reason)? = error else {
            Issue.record("expected stopped, got \(String(describing: error))")
            return
        }
        #expect(plugin == "Gate", "the first stopping plugin is named")
        #expect(reason == "offline")
        #expect(error?.description.contains("Gate") == true)
        #expect(log.count == 0)
        #expect(recorder.calls(of: "willSend") == ["Observer.willSend", "Gate.willSend", "Late.willSend"], "every plugin sees willSend")
        #expect(recorder.calls(of: "succeed").isEmpty && recorder.calls(of: "failure").isEmpty)
        #expect(recorder.calls(of: "process") == ["Observer.process", "Gate.process", "Late.process"])
        #expect(processed.count == 1)
    }

    // MARK: succeed / failure

    @Test(".retry re-runs from prepare with attempt + 1 and a freshly built request")
    func retryIncrementsAttempt() async throws {
        let recorder = Recorder()
        let log = TransportLog()
        var auth = RecordingPlugin("Auth", recorder)
        auth.onPrepare = { request in
            request.headers["Authorization"] = "token-\(request.attempt)"
            return .proceed
        }
        auth.onSucceed = { _, request in request.attempt < 3 ? .retry(after: .zero) : .proceed }
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [auth])
        let response = try await provider.request(TestTarget())

        #expect(log.all.map(\.attempt) == [1, 2, 3])
        #expect(log.all.map { $0.headers["Authorization"] } == ["token-1", "token-2", "token-3"])
        #expect(Set(log.all.map(\.id)).count == 1, "every attempt shares the call's id")
        #expect(response.request.attempt == 3)
        #expect(recorder.calls(of: "prepare").count == 3)
        #expect(recorder.calls(of: "process").count == 1, "process runs once, on the final result")
    }

    @Test("a plugin that always retries stops at maxAttempts; the last result stands", arguments: [1, 3, 5])
    func alwaysRetryStopsAtMaxAttempts(maxAttempts: Int) async throws {
        let recorder = Recorder()
        let log = TransportLog()
        var retry = RecordingPlugin("Retry", recorder)
        retry.onFailure = { _, _ in .retry(after: .zero) }
        let provider = Provider<TestTarget>(
            transport: StubTransport.counting(log), plugins: [retry],
            configuration: ProviderConfiguration(maxAttempts: maxAttempts)
        )
        let error = await failure(of: TestTarget(sampleResponse: SampleResponse(statusCode: 503)), on: provider)
        #expect(error?.statusCode == 503)
        #expect(log.count == maxAttempts)
        #expect(log.last?.attempt == maxAttempts)
    }

    @Test("the default maxAttempts is 3")
    func defaultMaxAttemptsIsThree() async throws {
        let recorder = Recorder()
        let log = TransportLog()
        var retry = RecordingPlugin("Retry", recorder)
        retry.onSucceed = { _, _ in .retry(after: .zero) }
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [retry])
        let response = try await provider.request(TestTarget())
        #expect(ProviderConfiguration().maxAttempts == 3)
        #expect(log.count == 3)
        #expect(response.request.attempt == 3)
    }

    @Test("values in the request context survive a retry")
    func contextSurvivesRetry() async throws {
        enum Visits: RequestContextKey { static let defaultValue = 0 }
        let recorder = Recorder()
        let log = TransportLog()
        var counter = RecordingPlugin("Counter", recorder)
        counter.onPrepare = { request in
            request.context[Visits.self] += 1
            return .proceed
        }
        counter.onSucceed = { _, request in request.attempt < 2 ? .retry(after: .zero) : .proceed }
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [counter])
        _ = try await provider.request(TestTarget())
        #expect(log.all.map { $0.context[Visits.self] } == [1, 2])
    }

    @Test(".recover turns a failure into a success with the given response")
    func recoverTurnsFailureIntoSuccess() async throws {
        let recorder = Recorder()
        var offline = RecordingPlugin("Offline", recorder)
        offline.onFailure = { _, request in
            .recover(Response(statusCode: 200, data: Data("stale".utf8), request: request, source: .cache))
        }
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [offline])
        let response = try await provider.request(TestTarget(sampleResponse: .failure(.connectionFailed(host: "api.example.com", reason: "refused"))))
        #expect(response.string() == "stale")
        #expect(response.source == .cache)
    }

    @Test("the first non-proceed failure decision in plugin order wins", arguments: [true, false])
    func firstFailureDecisionWins(retryFirst: Bool) async throws {
        let recorder = Recorder()
        let log = TransportLog()
        var retrying = RecordingPlugin("Retrying", recorder)
        retrying.onFailure = { _, request in request.attempt == 1 ? .retry(after: .zero) : .proceed }
        var recovering = RecordingPlugin("Recovering", recorder)
        recovering.onFailure = { _, request in
            .recover(Response(statusCode: 299, request: request, source: .cache))
        }
        let plugins: [any Plugin] = retryFirst ? [RecordingPlugin("Silent", recorder), retrying, recovering] : [recovering, retrying]
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: plugins)
        let response = try await provider.request(TestTarget(sampleResponse: SampleResponse(statusCode: 500)))

        #expect(response.statusCode == 299)
        #expect(log.count == (retryFirst ? 2 : 1), retryFirst ? "retry wins, then attempt 2 recovers" : "recover wins")
        #expect(recorder.calls(of: "failure").count == plugins.count * log.count, "every plugin sees every failure")
    }

    @Test("the first non-proceed succeed decision wins and every plugin still sees succeed")
    func everyPluginSeesSucceed() async throws {
        let recorder = Recorder()
        let log = TransportLog()
        var first = RecordingPlugin("First", recorder)
        first.onSucceed = { _, request in request.attempt == 1 ? .retry(after: .zero) : .proceed }
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [first, RecordingPlugin("Second", recorder)])
        _ = try await provider.request(TestTarget())
        #expect(log.count == 2)
        #expect(recorder.calls(of: "succeed") == ["First.succeed", "Second.succeed", "First.succeed", "Second.succeed"])
    }

    // MARK: process

    @Test("process can turn a success into a failure")
    func processSuccessToFailure() async throws {
        let recorder = Recorder()
        var business = RecordingPlugin("Business", recorder)
        business.onProcess = { result, _ in
            result.flatMap { response in
                .failure(.businessCode(code: "42", message: "nope", response: response))
            }
        }
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [business])
        let error = await failure(of: TestTarget(sampleResponse: .json(#"{"code": 42}"#)), on: provider)
        guard case .businessCode(let code, let message, let response)? = error else {
            Issue.record("expected businessCode, got \(String(describing: error))")
            return
        }
        #expect(code == "42")
        #expect(message == "nope")
        #expect(response.string() == #"{"code": 42}"#)
    }

    @Test("process can turn a failure into a success")
    func processFailureToSuccess() async throws {
        let recorder = Recorder()
        var fallback = RecordingPlugin("Fallback", recorder)
        fallback.onProcess = { result, request in
            switch result {
            case .success: result
            case .failure(let error): .success(Response(statusCode: 200, data: Data(error.caseName.utf8), request: request))
            }
        }
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [fallback])
        let response = try await provider.request(TestTarget(sampleResponse: SampleResponse(statusCode: 404)))
        #expect(response.string() == "unacceptableStatus")
    }

    @Test("process runs when building the request fails, with the build error")
    func processRunsOnBuildFailure() async throws {
        let recorder = Recorder()
        let seen = ErrorLog()
        var observer = RecordingPlugin("Observer", recorder)
        observer.onProcess = { result, request in
            seen.append(result.error)
            #expect(request.target is TestTarget)
            return result
        }
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [observer])
        let error = await failure(of: TestTarget(name: "badPath", path: "bad%zzpath"), on: provider)
        #expect(error?.caseName == "invalidURL")
        #expect(seen.all.map { $0?.caseName } == ["invalidURL"])
        #expect(recorder.all == ["Observer.process"], "no other hook runs for a request that was never built")
    }
}
