import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("Call cancellation and cancelAll()")
struct CallCancellationTests {
    /// What a request ended with, and whether the task that awaited it was cancelled afterwards.
    private struct Outcome: Sendable {
        let error: NetworkError?
        let taskCancelled: Bool
    }

    private func outcome(_ provider: Provider<TestTarget>, _ target: TestTarget = TestTarget()) async -> Outcome {
        do {
            _ = try await provider.request(target)
            return Outcome(error: nil, taskCancelled: Task.isCancelled)
        } catch {
            return Outcome(error: error, taskCancelled: Task.isCancelled)
        }
    }

    @Test("cancelAll() ends a retry wait at once; the caller's task is not cancelled and process sees .cancelled")
    func cancelAllEndsRetryWait() async throws {
        let waiting = Signal()
        let processed = ErrorLog()
        var retry = RecordingPlugin("Retry", Recorder())
        retry.onSucceed = { _, _ in
            waiting.fire()
            return .retry(after: .seconds(30))
        }
        retry.onProcess = { result, _ in
            processed.append(result.error)
            return result
        }
        let log = TransportLog()
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [retry])
        let task = Task { await outcome(provider) }
        await waiting.wait()
        let clock = ContinuousClock()
        let cancelledAt = clock.now
        provider.cancelAll()
        let result = await task.value
        #expect(clock.now - cancelledAt < .seconds(5), "the 30 s wait ended early")
        #expect(result.error?.caseName == "cancelled")
        #expect(!result.taskCancelled, "cancelAll() ends the call, not the caller's task")
        #expect(log.count == 1, "no second attempt after cancelAll()")
        #expect(processed.all.map { $0?.caseName } == ["cancelled"])
        #expect(provider.inFlightCount == 0)
    }

    @Test("cancelAll() ends StubTransport's delay; the caller's task runs on uncancelled")
    func cancelAllEndsStubDelay() async throws {
        let sent = Signal()
        let observer = Self.firing(sent)
        let provider = Provider<TestTarget>(transport: StubTransport(behavior: .delayed(.seconds(30))), plugins: [observer])
        let task = Task { await outcome(provider) }
        await sent.wait()
        provider.cancelAll()
        let result = await task.value
        #expect(result.error?.caseName == "cancelled")
        #expect(!result.taskCancelled)
        #expect(provider.inFlightCount == 0)
    }

    @Test("200 concurrent calls under 20 cancelAll() calls all end, and no call stays registered")
    func cancelAllStorm() async throws {
        var retry = RecordingPlugin("Retry", Recorder())
        retry.onSucceed = { _, request in request.attempt < 3 ? .retry(after: .milliseconds(15)) : .proceed }
        let provider = Provider<TestTarget>(transport: StubTransport(behavior: .delayed(.milliseconds(10))), plugins: [retry])
        let clock = ContinuousClock()
        let start = clock.now
        let results = await withTaskGroup(of: Outcome.self, returning: [Outcome].self) { group in
            for index in 0..<200 {
                group.addTask { await outcome(provider, TestTarget(name: "call\(index)")) }
            }
            group.addTask {
                for _ in 0..<20 {
                    provider.cancelAll()
                    try? await Task.sleep(for: .milliseconds(3))
                }
                return Outcome(error: nil, taskCancelled: false)
            }
            var all: [Outcome] = []
            for await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 201)
        #expect(clock.now - start < .seconds(20))
        let names = Set(results.compactMap { $0.error?.caseName })
        #expect(names == ["cancelled"], "some calls cancelled, the rest succeeded; got \(names)")
        #expect(results.allSatisfy { !$0.taskCancelled })
        #expect(provider.inFlightCount == 0)
    }

    @Test("cancelAll() ends a stream waiting for its head with .cancelled")
    func cancelAllEndsStream() async throws {
        let sent = Signal()
        let observer = Self.firing(sent)
        let provider = Provider<TestTarget>(transport: StubTransport(behavior: .delayed(.seconds(30))), plugins: [observer])
        let stream = provider.stream(TestTarget())
        let reader = Task { () -> NetworkError? in
            do {
                _ = try await stream.head
                return nil
            } catch {
                return error as? NetworkError
            }
        }
        await sent.wait()
        #expect(provider.inFlightCount == 1)
        provider.cancelAll()
        #expect(await reader.value?.caseName == "cancelled")
        for _ in 0..<200 where provider.inFlightCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(provider.inFlightCount == 0)
    }

    @Test("Dedup: cancelAll() ends one provider's waiter; the shared transfer goes on for the other caller")
    func dedupWaiterLeavesOnCancelAll() async throws {
        let entered = Signal()
        let release = Signal()
        let shared = DeduplicatingTransport(
            StubTransport(
                behavior: .custom { request in
                    entered.fire()
                    await release.wait()
                    return Response(statusCode: 200, data: Data("shared".utf8), request: request, source: .stub)
                }))
        let cancelled = Provider<TestTarget>(transport: shared)
        let kept = Provider<TestTarget>(transport: shared)
        let first = Task { await outcome(cancelled) }
        await entered.wait()
        let second = Task { try await kept.request(TestTarget()) }
        // The second caller joins the flight before the first is cancelled.
        while shared.waitingCallers < 2 { await Task.yield() }
        cancelled.cancelAll()
        let firstResult = await first.value
        #expect(firstResult.error?.caseName == "cancelled")
        #expect(!firstResult.taskCancelled)
        release.fire()
        let response = try await second.value
        #expect(response.string() == "shared")
    }

    @Test("cancelAll() before a request's first suspension still cancels it, and the call ends once")
    func cancelAllDuringSynchronousStart() async throws {
        // The call starts on the caller's thread and is registered at its first suspension: a
        // cancelAll() from its own prepare comes before that, and must not be missed.
        let box = Locked<Provider<TestTarget>?>(nil)
        var canceller = RecordingPlugin("Canceller", Recorder())
        canceller.onPrepare = { _ in
            box.withLock { $0 }?.cancelAll()
            return .proceed
        }
        let processed = ErrorLog()
        canceller.onProcess = { result, _ in
            processed.append(result.error)
            return result
        }
        let provider = Provider<TestTarget>(transport: StubTransport(behavior: .delayed(.seconds(30))), plugins: [canceller])
        box.withLock { $0 = provider }
        let result = await outcome(provider)
        #expect(result.error?.caseName == "cancelled")
        #expect(!result.taskCancelled)
        #expect(processed.all.map { $0?.caseName } == ["cancelled"])
        #expect(provider.inFlightCount == 0)
        box.withLock { $0 = nil }
    }

    @Test("cancelAll() right after send, transfer, responses or stream returns reaches those calls")
    func cancelAllReachesCallsJustStarted() async throws {
        let provider = Provider<TestTarget>(transport: StubTransport(behavior: .delayed(.seconds(5))))
        let sent = Locked<NetworkError?>(nil)
        let done = Signal()
        provider.send(TestTarget()) { result in
            if case .failure(let error) = result { sent.withLock { $0 = error } }
            done.fire()
        }
        provider.cancelAll()
        await done.wait()
        #expect(sent.withLock { $0 }?.caseName == "cancelled")

        let transfer = provider.transfer(TestTarget())
        provider.cancelAll()
        let transferred = await #expect(throws: NetworkError.self) { try await transfer.response() }
        #expect(transferred?.caseName == "cancelled")

        let responses = provider.responses(TestTarget())
        provider.cancelAll()
        let streamed = await #expect(throws: (any Error).self) { for try await _ in responses {} }
        #expect((streamed as? NetworkError)?.caseName == "cancelled")

        let stream = provider.stream(TestTarget())
        provider.cancelAll()
        let headError = await #expect(throws: NetworkError.self) { _ = try await stream.head }
        #expect(headError?.caseName == "cancelled")
        // A stream's head fails before its pipeline task unregisters the call.
        for _ in 0..<200 where provider.inFlightCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(provider.inFlightCount == 0)
    }

    /// A plugin that fires `sent` when a request is about to reach the transport.
    static func firing(_ sent: Signal) -> RecordingPlugin {
        var observer = RecordingPlugin("Observer", Recorder())
        observer.onWillSend = { _ in
            sent.fire()
            return .proceed
        }
        return observer
    }
}
