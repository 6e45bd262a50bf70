import Foundation
import NetBatch
import NetCore
import Testing

@Suite("Batch fail-fast and cancellation")
struct CancellationTests {
    @Test("Fail-fast: the first failure cancels in-flight and pending items")
    func failFastCancelsTheRest() async {
        // Item 0 fails only once item 1 is in flight, so there is an in-flight item to cancel.
        let transport = ScriptedTransport(failures: [0: 1], hanging: [1], waitsFor: [0: 1])
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(maxConcurrent: 2, failFast: true))
        let result = await batch.run(items(10))
        #expect(result[0].error?.statusCode == 503)
        #expect(!result[0].wasCancelled)
        #expect(result[1].wasCancelled && result[1].attempts == 1)
        #expect(result[2...].allSatisfy { $0.wasCancelled && $0.attempts == 0 && $0.error?.isCancellation == true })
        #expect(result.cancelledIndexes == Array(1..<10))
        #expect(result.summary == BatchSummary(total: 10, succeeded: 0, failed: 1, cancelled: 9, rounds: 1))
        #expect(Set(transport.sends) == [0, 1])
    }

    @Test("Fail-fast waits for an item's own retries before cancelling the rest")
    func failFastAfterRetries() async {
        let transport = ScriptedTransport(failures: [0: 1, 2: 100])
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(
                maxConcurrent: 1, maxRetries: 1,
                retryTiming: .immediately, failFast: true))
        let result = await batch.run(items(5))
        #expect(result.map(\.attempts) == [2, 1, 2, 0, 0])
        #expect(result[0].succeeded && result[1].succeeded)
        #expect(result.cancelledIndexes == [3, 4])
    }

    @Test("Without fail-fast a failure does not stop the other items")
    func failuresDoNotStopOthersByDefault() async {
        let transport = ScriptedTransport(failures: [0: 1])
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(maxConcurrent: 2))
        let result = await batch.run(items(10))
        #expect(result.summary == BatchSummary(total: 10, succeeded: 9, failed: 1, cancelled: 0, rounds: 1))
    }

    @Test("Cancelling the calling task cancels in-flight and pending items and keeps finished ones")
    func cancellingTheTaskCancelsEveryItem() async {
        let transport = ScriptedTransport(hanging: Set(3..<10))
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(maxConcurrent: 4, retryTiming: .immediately))
        let task = Task { await batch.run(items(10)) }
        // Items 0...2 finish at once; 3...6 then hang in flight; 7...9 wait for a slot.
        var started = 0
        for await _ in transport.started {
            started += 1
            if started == 7 { break }
        }
        task.cancel()
        let result = await task.value
        #expect(result[..<3].allSatisfy { $0.succeeded })
        #expect(result[3..<7].allSatisfy { $0.wasCancelled && $0.attempts == 1 })
        #expect(result[7...].allSatisfy { $0.wasCancelled && $0.attempts == 0 })
        #expect(result.cancelledIndexes == Array(3..<10))
        #expect(transport.sends.count == 7)
    }

    @Test("A batch run by an already-cancelled task sends nothing and marks every item cancelled")
    func alreadyCancelledTask() async {
        let transport = ScriptedTransport()
        let batch = BatchManager(provider: Provider<Item>(transport: transport))
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await batch.run(items(20))
        }
        let result = await task.value
        #expect(result.cancelledIndexes == Array(0..<20))
        #expect(result.allSatisfy { $0.attempts == 0 })
        #expect(transport.sends.isEmpty)
    }

    @Test("A started batch streams its events and cancel() cancels it")
    func startedBatchCanBeCancelled() async {
        let transport = ScriptedTransport(hanging: [0])
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(maxConcurrent: 1))
        let running = batch.start(items(3))
        var seen: [String] = []
        for await event in running.events {
            seen.append(describe(event))
            if case .itemStarted = event { running.cancel() }
        }
        let result = await running.result()
        #expect(result.cancelledIndexes == [0, 1, 2])
        #expect(seen == ["round 1 (3)", "start 0#1", "finish 0#1 failure", "finished 0/0/3 in 1"])
    }

    @Test("A cancelled backoff wait ends the item as cancelled")
    func cancelledBackoffWait() async {
        let transport = ScriptedTransport(failures: [0: 100])
        let configuration = BatchConfiguration(
            retryTiming: .backoff(), sleep: { _ in throw CancellationError() })
        let batch = BatchManager(provider: Provider<Item>(transport: transport), configuration: configuration)
        let result = await batch.run(items(1))
        #expect(result[0].wasCancelled)
        #expect(result[0].attempts == 1)
    }
}
