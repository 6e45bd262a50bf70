import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

/// One observation point for a call's life: every event in order, the end exactly once, nothing
/// changed by observing.
@Suite("Network events")
struct NetworkEventTests {
    private func provider(
        _ transport: any Transport = StubTransport(), plugins: [any Plugin] = [], observers: [any NetworkEventObserver]
    ) -> Provider<TestTarget> {
        var configuration = ProviderConfiguration()
        configuration.eventObservers = observers
        return Provider(transport: transport, plugins: plugins, configuration: configuration)
    }

    @Test("A retried call reports its start, each attempt and outcome, the retry with its delay and reason, and one end")
    func retriedCall() async {
        let log = EventLog()
        var retrying = RecordingPlugin("retry", Recorder())
        retrying.onFailure = { _, request in request.attempt < 2 ? .retry(after: .milliseconds(1)) : .proceed }
        let answers = Locked([500, 200])
        let transport = StubTransport(
            behavior: .custom { request in
                Response(statusCode: answers.withLock { $0.removeFirst() }, request: request)
            })
        let result = await provider(transport, plugins: [retrying], observers: [log]).run(TestTarget())
        #expect(result.response?.statusCode == 200)
        #expect(
            log.lines == [
                "1:started", "1:attempt", "1:failure unacceptableStatus",
                "1:retry 0.001 seconds after unacceptableStatus", "2:attempt", "2:response 200", "2:ended 200",
            ])
        #expect(Set(log.all.map(\.callID)).count == 1)
    }

    @Test("A call whose request cannot be built reports its start, the failure and one end")
    func unbuildableCall() async {
        let log = EventLog()
        _ = await provider(observers: [log]).run(TestTarget(path: "bad%zzpath"))
        #expect(log.lines == ["1:started", "1:failure invalidURL", "1:ended invalidURL"])
    }

    @Test("A call cancelled while it runs ends exactly once, as cancelled")
    func cancelledCall() async {
        let log = EventLog()
        let cancelling = Locked<Provider<TestTarget>?>(nil)
        let canceller = NetworkEventHandler { event in
            if case .attemptStarted = event.kind { cancelling.withLock { $0 }?.cancelAll() }
        }
        let provider = provider(StubTransport(behavior: .delayed(.seconds(30))), observers: [log, canceller])
        cancelling.withLock { $0 = provider }
        // The handler reaches the provider that holds it: let go at the end (no cycle left behind).
        defer { cancelling.withLock { $0 = nil } }
        let result = await provider.run(TestTarget())
        #expect(result.error?.caseName == "cancelled")
        #expect(log.lines.filter { $0.hasSuffix("ended cancelled") }.count == 1)
        #expect(log.lines.last == "1:ended cancelled")
    }

    @Test("A plugin that is an observer is registered by its provider and sees a prepare answer as a response")
    func pluginObserver() async throws {
        struct Watching: Plugin, NetworkEventObserver {
            let log: EventLog
            func prepare(_ request: inout Request) async throws -> PrepareAction {
                .respond(Response(statusCode: 203, request: request, source: .cache))
            }
            func observe(_ event: NetworkEvent) { log.observe(event) }
        }
        let log = EventLog()
        let response = try await Provider<TestTarget>(transport: StubTransport(), plugins: [Watching(log: log)]).request(TestTarget())
        #expect(response.statusCode == 203)
        #expect(log.lines == ["1:started", "1:attempt", "1:response 203", "1:ended 203"])
    }

    @Test("Observing changes no result: the same call answers the same with and without observers")
    func observingChangesNothing() async throws {
        let target = TestTarget(sampleResponse: SampleResponse(statusCode: 200, data: Data("body".utf8)))
        let plain = try await Provider<TestTarget>(transport: StubTransport()).request(target)
        let observed = try await provider(observers: [EventLog(), NetworkEventHandler { _ in }]).request(target)
        #expect(observed.statusCode == plain.statusCode)
        #expect(observed.data == plain.data)
        #expect(observed.headers == plain.headers)
    }

    @Test("Each attempt's response carries its attempt number in its metrics")
    func attemptInMetrics() async throws {
        let attempts = Locked<[Int]>([])
        var retrying = RecordingPlugin("retry", Recorder())
        retrying.onSucceed = { response, request in
            attempts.withLock { $0.append(response.metrics?.attempt ?? 0) }
            return request.attempt < 3 ? .retry(after: .zero) : .proceed
        }
        let response = try await Provider<TestTarget>(transport: StubTransport(), plugins: [retrying]).request(TestTarget())
        #expect(attempts.withLock { $0 } == [1, 2, 3])
        #expect(response.metrics?.attempt == 3)
    }

    @Test("A streamed call reports the head as its response and ends once, after its body")
    func streamedCall() async throws {
        let log = EventLog()
        let stream = provider(observers: [log]).stream(TestTarget(sampleResponse: SampleResponse(statusCode: 200, data: Data("abc".utf8))))
        var body = Data()
        for try await chunk in stream { body.append(chunk) }
        #expect(body == Data("abc".utf8))
        // The end is reported after the reader's last chunk, so wait for it without sleeping.
        while !log.lines.contains(where: { $0.contains("ended") }) { await Task.yield() }
        #expect(log.lines == ["1:started", "1:attempt", "1:response 200", "1:ended 200"])
    }
}

extension Provider {
    /// The call's result as a value.
    fileprivate func run(_ target: Target) async -> Result<Response, NetworkError> {
        do { return .success(try await request(target)) } catch { return .failure(error) }
    }
}
