import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("Cancellation")
struct CancellationTests {
    /// A plugin that fires `sent` from willSend and records what process saw.
    private func observer(_ recorder: Recorder, sent: Signal, processed: ErrorLog) -> RecordingPlugin {
        var plugin = RecordingPlugin("Observer", recorder)
        plugin.onWillSend = { _ in
            sent.fire()
            return .proceed
        }
        plugin.onProcess = { result, _ in
            processed.append(result.error)
            return result
        }
        return plugin
    }

    @Test("cancelling the calling task ends a slow request with .cancelled, and process sees .cancelled")
    func taskCancellationReachesProcess() async throws {
        let recorder = Recorder()
        let sent = Signal()
        let processed = ErrorLog()
        let provider = Provider<TestTarget>(
            transport: StubTransport(behavior: .delayed(.seconds(10))),
            plugins: [observer(recorder, sent: sent, processed: processed)]
        )
        let task = Task { try await provider.request(TestTarget()) }
        await sent.wait()
        task.cancel()
        #expect(await networkError(of: task)?.caseName == "cancelled")
        #expect(processed.all.map { $0?.caseName } == ["cancelled"])
        #expect(recorder.calls(of: "failure") == ["Observer.failure"], "cancellation is reported to failure")
    }

    @Test("cancellation is never retried or recovered")
    func cancellationIsNotRetriedOrRecovered() async throws {
        let recorder = Recorder()
        let sent = Signal()
        let processed = ErrorLog()
        var retrying = RecordingPlugin("Retrying", recorder)
        retrying.onFailure = { _, _ in .retry(after: .zero) }
        var recovering = RecordingPlugin("Recovering", recorder)
        recovering.onFailure = { _, request in .recover(Response(statusCode: 200, request: request)) }
        let log = TransportLog()
        // Cancel once the transport runs: cancelled between willSend and the transport, the
        // request would end before anything was sent, and the count below would be 0.
        let inTransport = Signal()
        let provider = Provider<TestTarget>(
            transport: StubTransport.counting(log) { request in
                inTransport.fire()
                try await Task.sleep(for: .seconds(10))
                return Response(statusCode: 200, request: request)
            },
            plugins: [observer(recorder, sent: sent, processed: processed), retrying, recovering]
        )
        let task = Task { try await provider.request(TestTarget()) }
        await inTransport.wait()
        task.cancel()
        let error = await networkError(of: task)
        #expect(error?.caseName == "cancelled")
        #expect(log.count == 1)
        #expect(processed.all.map { $0?.caseName } == ["cancelled"])
    }

    @Test("the wait before a retry is cancellable")
    func retryWaitIsCancellable() async throws {
        let recorder = Recorder()
        let waiting = Signal()
        let processed = ErrorLog()
        var retry = RecordingPlugin("Retry", recorder)
        retry.onSucceed = { _, _ in
            waiting.fire()
            return .retry(after: .seconds(10))
        }
        retry.onProcess = { result, _ in
            processed.append(result.error)
            return result
        }
        let log = TransportLog()
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [retry])
        let clock = ContinuousClock()
        let task = Task { try await provider.request(TestTarget()) }
        await waiting.wait()
        let cancelledAt = clock.now
        task.cancel()
        let error = await networkError(of: task)
        // The retry asked for 10 s; a cancellable wait ends far sooner.
        #expect(clock.now - cancelledAt < .seconds(5))
        #expect(error?.caseName == "cancelled")
        #expect(log.count == 1, "no second attempt after cancellation")
        #expect(processed.all.map { $0?.caseName } == ["cancelled"])
    }

    @Test("a task cancelled before it starts never reaches the transport")
    func cancelledBeforeStart() async throws {
        let log = TransportLog()
        let processed = ErrorLog()
        var observer = RecordingPlugin("Observer", Recorder())
        observer.onProcess = { result, _ in
            processed.append(result.error)
            return result
        }
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [observer])
        let gate = Signal()
        let task = Task {
            await gate.wait()
            return try await provider.request(TestTarget())
        }
        task.cancel()
        gate.fire()
        let error = await networkError(of: task)
        #expect(error?.caseName == "cancelled")
        #expect(log.count == 0)
        #expect(processed.all.map { $0?.caseName } == ["cancelled"])
    }
}
