import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

/// `didReceive` sees every attempt exactly once, whatever it ended with, and cannot change results.
@Suite("The didReceive observer hook")
struct ObserverHookTests {
    /// Records (attempt, outcome) pairs.
    final class Observer: Plugin, Sendable {
        let seen = Locked<[String]>([])
        func didReceive(_ result: Result<Response, NetworkError>, for request: Request) async {
            let outcome =
                switch result {
                case .success(let response): "\(response.statusCode)"
                case .failure(let error): error.caseName
                }
            seen.withLock { $0.append("\(request.attempt):\(outcome)") }
        }
    }

    @Test("Responses, retries, prepare answers, stops, build failures and cancellations are each observed once")
    func everyOutcome() async throws {
        let recorder = Recorder()
        var retrying = RecordingPlugin("retry", recorder)
        retrying.onFailure = { _, request in request.attempt < 3 ? .retry(after: .zero) : .proceed }
        let observer = Observer()
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [observer, retrying])
        _ = await failure(of: TestTarget(sampleResponse: SampleResponse(statusCode: 500)), on: provider)
        #expect(observer.seen.withLock { $0 } == ["1:unacceptableStatus", "2:unacceptableStatus", "3:unacceptableStatus"])

        var answering = RecordingPlugin("cache", recorder)
        answering.onPrepare = { request in .respond(Response(statusCode: 203, request: request, source: .cache)) }
        let answered = Observer()
        _ = try await Provider<TestTarget>(transport: StubTransport(), plugins: [answered, answering]).request(TestTarget())
        #expect(answered.seen.withLock { $0 } == ["1:203"])

        var stopping = RecordingPlugin("stop", recorder)
        stopping.onWillSend = { _ in .stop(reason: "offline") }
        let stopped = Observer()
        _ = await failure(of: TestTarget(), on: Provider<TestTarget>(transport: StubTransport(), plugins: [stopped, stopping]))
        #expect(stopped.seen.withLock { $0 } == ["1:stopped"])

        let unbuildable = Observer()
        _ = await failure(of: TestTarget(path: "bad%zzpath"), on: Provider<TestTarget>(transport: StubTransport(), plugins: [unbuildable]))
        #expect(unbuildable.seen.withLock { $0 } == ["1:invalidURL"])

        let cancelled = Observer()
        let sending = Signal()
        let slow = Provider<TestTarget>(
            transport: StubTransport(
                behavior: .custom { request in
                    sending.fire()
                    try await Task.sleep(for: .seconds(60))
                    return Response(statusCode: 200, request: request)
                }),
            plugins: [cancelled])
        let task = Task { try await slow.request(TestTarget()) }
        await sending.wait()
        task.cancel()
        _ = await task.result
        #expect(cancelled.seen.withLock { $0 } == ["1:cancelled"])
    }

    @Test("Streams: an attempt whose 2xx head succeed retried, and an accepted non-2xx, are each observed once")
    func streamedAttempts() async throws {
        var retrying = RecordingPlugin("retry", Recorder())
        retrying.onSucceed = { _, request in request.attempt < 2 ? .retry(after: .zero) : .proceed }
        let observer = Observer()
        let stream = Provider<TestTarget>(transport: StubTransport(), plugins: [observer, retrying]).stream(TestTarget())
        for try await _ in stream {}
        #expect(observer.seen.withLock { $0 } == ["1:200", "2:200"])

        let accepting = Observer()
        let notFound = Provider<TestTarget>(transport: StubTransport(), plugins: [accepting])
            .stream(TestTarget(validation: .none, sampleResponse: SampleResponse(statusCode: 404)))
        for try await _ in notFound {}
        #expect(accepting.seen.withLock { $0 } == ["1:404"])
    }

    @Test("FailureAction.fail replaces the error; later plugins' process sees the replacement")
    func failReplacesTheError() async {
        let recorder = Recorder()
        var mapping = RecordingPlugin("map", recorder)
        mapping.onFailure = { _, _ in .fail(.pluginFailed(plugin: "map", reason: "mapped")) }
        let error = await failure(
            of: TestTarget(sampleResponse: SampleResponse(statusCode: 500)),
            on: Provider<TestTarget>(transport: StubTransport(), plugins: [mapping]))
        #expect(error?.caseName == "pluginFailed")
    }

    @Test("callStorage is shared by every hook and attempt of one call, and only that call")
    func callStorage() async throws {
        enum Count: RequestContextKey { static var defaultValue: Int { 0 } }
        let recorder = Recorder()
        var counting = RecordingPlugin("count", recorder)
        counting.onFailure = { _, request in
            request.callStorage[Count.self] += 1
            return request.callStorage[Count.self] < 2 ? .retry(after: .zero) : .proceed
        }
        let seen = Locked<[Int]>([])
        counting.onProcess = { result, request in
            seen.withLock { $0.append(request.callStorage[Count.self]) }
            return result
        }
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [counting])
        _ = await failure(of: TestTarget(sampleResponse: SampleResponse(statusCode: 500)), on: provider)
        _ = await failure(of: TestTarget(sampleResponse: SampleResponse(statusCode: 500)), on: provider)
        #expect(seen.withLock { $0 } == [2, 2], "two attempts per call, counted per call")
    }
}
