import NetToolbox
import Foundation
import NetBatch
import NetCore
import Testing

@Suite("Batch retry timing")
struct RetryTimingTests {
    @Test("With .none a failure is reported after one attempt")
    func noneReportsFailures() async {
        let transport = ScriptedTransport(failures: [1: 1])
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(retryTiming: .none))
        let result = await batch.run(items(3))
        #expect(result.map(\.attempts) == [1, 1, 1])
        #expect(result.failures.map(\.index) == [1])
        #expect(result[1].error?.statusCode == 503)
        #expect(transport.sends.count == 3)
    }

    @Test("With .immediately a failed item is sent again at once, before the next item starts")
    func immediatelyRetriesInPlace() async {
        let transport = ScriptedTransport(failures: [1: 2])
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(maxConcurrent: 1, retryTiming: .immediately))
        let result = await batch.run(items(4))
        #expect(result.allSucceeded)
        #expect(result.map(\.attempts) == [1, 3, 1, 1])
        #expect(transport.sends == [0, 1, 1, 1, 2, 3])
    }

    @Test("With .immediately an item is sent at most maxRetries + 1 times", arguments: [0, 1, 3, 5])
    func immediatelyStopsAtMaxRetries(maxRetries: Int) async {
        let transport = ScriptedTransport(failures: [0: 100])
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(maxRetries: maxRetries, retryTiming: .immediately))
        let result = await batch.run(items(1))
        #expect(result[0].attempts == maxRetries + 1)
        #expect(transport.attempts(of: 0) == maxRetries + 1)
        #expect(result[0].error?.statusCode == 503)
    }

    @Test("With .afterBatch failures run again as new rounds only after every item finished")
    func afterBatchRetriesInRounds() async {
        let transport = ScriptedTransport(failures: [1: 1, 3: 2])
        let asked = Locked<[[Int]]>([])
        let timing = RetryTiming.afterBatch { failures in
            asked.withLock { $0.append(failures.map(\.index)) }
            return true
        }
        let log = EventLog()
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(maxConcurrent: 2, retryTiming: timing))
        let result = await batch.run(items(5), onEvent: log.handler)
        #expect(result.allSucceeded)
        #expect(result.map(\.attempts) == [1, 2, 1, 3, 1])
        #expect(result.rounds == 3)
        let sends = transport.sends
        #expect(sends.count == 8)
        #expect(sends.prefix(5).sorted() == [0, 1, 2, 3, 4])
        #expect(sends[5..<7].sorted() == [1, 3])
        #expect(Array(sends[7...]) == [3])
        #expect(asked.withLock { $0 } == [[1, 3], [3]])
        let rounds = log.all.compactMap { event -> String? in
            if case .roundStarted = event { describe(event) } else { nil }
        }
        #expect(rounds == ["round 1 (5)", "round 2 (2)", "round 3 (1)"])
    }

    @Test("With .afterBatch nothing is retried when shouldRetry returns false")
    func afterBatchHonoursShouldRetry() async {
        let transport = ScriptedTransport(failures: [1: 1])
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(retryTiming: .afterBatch { _ in false }))
        let result = await batch.run(items(3))
        #expect(result.map(\.attempts) == [1, 1, 1])
        #expect(result.rounds == 1)
        #expect(result.failures.map(\.index) == [1])
    }

    @Test("With .afterBatch at most maxRetries extra rounds run")
    func afterBatchStopsAtMaxRetries() async {
        let transport = ScriptedTransport(failures: [0: 100])
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(maxRetries: 2, retryTiming: .afterBatch))
        let result = await batch.run(items(2))
        #expect(result.rounds == 3)
        #expect(result.map(\.attempts) == [3, 1])
        #expect(transport.sends == [0, 1, 0, 0] || transport.sends == [1, 0, 0, 0])
    }

    @Test("With .backoff retries wait growing delays capped at max, between the attempts")
    func backoffWaitsGrowingDelays() async {
        let transport = ScriptedTransport(failures: [0: 4])
        let sendsAtSleep = Locked<[Int]>([])
        let recorder = SleepRecorder()
        let sleep = recorder.sleep
        let configuration = BatchConfiguration(
            maxRetries: 4, retryTiming: .backoff(initial: .milliseconds(100), multiplier: 2, max: .milliseconds(300)),
            sleep: { delay in
                sendsAtSleep.withLock { $0.append(transport.sends.count) }
                try await sleep(delay)
            })
        let batch = BatchManager(provider: Provider<Item>(transport: transport), configuration: configuration)
        let result = await batch.run(items(1))
        #expect(result[0].succeeded)
        #expect(result[0].attempts == 5)
        #expect(recorder.recorded == [.milliseconds(100), .milliseconds(200), .milliseconds(300), .milliseconds(300)])
        #expect(sendsAtSleep.withLock { $0 } == [1, 2, 3, 4])
    }

    @Test("With .backoff each failing item waits its own sequence and successes never wait")
    func backoffPerItem() async {
        let transport = ScriptedTransport(failures: [1: 2, 2: 1])
        let recorder = SleepRecorder()
        let configuration = BatchConfiguration(
            retryTiming: .backoff(initial: .milliseconds(50), multiplier: 3, max: .seconds(1)), sleep: recorder.sleep)
        let batch = BatchManager(provider: Provider<Item>(transport: transport), configuration: configuration)
        let result = await batch.run(items(4))
        #expect(result.map(\.attempts) == [1, 3, 2, 1])
        #expect(recorder.recorded.sorted() == [.milliseconds(50), .milliseconds(50), .milliseconds(150)])
    }

    @Test("Errors that isRetryable rejects are not retried")
    func isRetryableFiltersErrors() async {
        let transport = ScriptedTransport(failures: [0: 1, 1: 1])
        let configuration = BatchConfiguration(retryTiming: .immediately, isRetryable: { $0.statusCode != 503 })
        let batch = BatchManager(provider: Provider<Item>(transport: transport), configuration: configuration)
        let result = await batch.run(items(2))
        #expect(result.map(\.attempts) == [1, 1])
        #expect(!BatchConfiguration.defaultIsRetryable(.stopped(plugin: "P", reason: "r")))
        #expect(!BatchConfiguration.defaultIsRetryable(.cancelled))
        #expect(BatchConfiguration.defaultIsRetryable(.timedOut))
    }

    @Test("The third release's decision 4: protocol violations, pin failures and oversized bodies are never retried")
    func permanentFailuresAreNotRetried() {
        let permanent: [NetworkError] = [
            .invalidResponse(reason: "bad status line"), .pinningFailed(host: "example.com"), .responseTooLarge(limit: 10),
        ]
        for error in permanent { #expect(!BatchConfiguration.defaultIsRetryable(error), "\(error.code)") }
        #expect(BatchConfiguration.defaultIsRetryable(.connectionLost(reason: "reset")))
        #expect(BatchConfiguration.defaultIsRetryable(.unacceptableStatus(Response(statusCode: 503, data: Data()))))
    }

    @Test("Operation items are retried by calling the operation again")
    func operationsAreRetried() async throws {
        let calls = Locked(0)
        let provider = Provider<Item>(transport: StubTransport())
        let batch = BatchManager(provider: provider, configuration: BatchConfiguration(retryTiming: .immediately))
        let result = await batch.run([
            .target(.number(0)),
            .operation {
                let call = calls.withLock {
                    $0 += 1; return $0
                }
                if call < 3 { throw NetworkError.timedOut }
                return try await provider.request(.number(7))
            },
        ])
        #expect(result.allSucceeded)
        #expect(result.map(\.attempts) == [1, 3])
        #expect(result[1].target == nil)
        #expect(try result.decode(as: Value.self).map(\.value) == [0, 7])
    }
}
