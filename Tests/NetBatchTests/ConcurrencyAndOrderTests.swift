import Foundation
import NetBatch
import NetCore
import Testing

@Suite("Batch concurrency limit and ordering")
struct ConcurrencyAndOrderTests {
    @Test("1,000 items with random delays never exceed maxConcurrent and reach it exactly", arguments: [1, 5, 8])
    func maxConcurrentIsReachedAndNeverExceeded(limit: Int) async {
        let transport = ScriptedTransport(maxDelayMicroseconds: 300)
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(maxConcurrent: limit))
        let result = await batch.run(items(1_000))
        #expect(result.allSucceeded)
        #expect(result.count == 1_000)
        #expect(transport.maxInFlight == limit)
    }

    @Test("The default limit is 5")
    func defaultLimitIsFive() async {
        let transport = ScriptedTransport(maxDelayMicroseconds: 300)
        let batch = BatchManager(provider: Provider<Item>(transport: transport))
        #expect(batch.configuration.maxConcurrent == 5)
        _ = await batch.run(items(200))
        #expect(transport.maxInFlight == 5)
    }

    @Test("10,000 items finishing in random order come back in input order")
    func orderIsPreservedForTenThousandItems() async throws {
        let transport = StubTransport(
            behavior: .custom { request in
                for _ in 0..<Int.random(in: 0...3) { await Task.yield() }
                let sample = request.target.sampleResponse
                return Response(statusCode: 200, data: sample.data, request: request, source: .stub)
            })
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(maxConcurrent: 16))
        let result = await batch.run(items(10_000))
        #expect(result.map(\.index) == Array(0..<10_000))
        #expect(result.map(\.target) == items(10_000))
        let values = try result.decode(as: Value.self).map(\.value)
        #expect(values == Array(0..<10_000))
        #expect(result.allSatisfy { $0.attempts == 1 && !$0.wasCancelled })
    }

    @Test("An empty batch succeeds with no items")
    func emptyBatch() async {
        let batch = BatchManager(provider: Provider<Item>(transport: StubTransport()))
        let result = await batch.run([Item]())
        #expect(result.isEmpty)
        #expect(result.allSucceeded)
        #expect(result.summary == BatchSummary(total: 0, succeeded: 0, failed: 0, cancelled: 0, rounds: 1))
    }

    @Test("Every provider plugin sees every request, retries included, with mixed targets")
    func pluginsApplyToEveryRequest() async {
        let plugin = CountingPlugin()
        let transport = ScriptedTransport(failures: [1: 2])
        let provider = Provider<AnyTarget>(transport: transport, plugins: [plugin])
        let batch = BatchManager(
            provider: provider,
            configuration: BatchConfiguration(retryTiming: .immediately))
        let result = await batch.run([AnyTarget(Item.number(0)), AnyTarget(Item.number(1)), AnyTarget(Other.ping)])
        #expect(result.allSucceeded)
        #expect(result.map(\.attempts) == [1, 3, 1])
        #expect(plugin.seen == 5)
        #expect(result[2].target?.base is Other)
    }

    @Test("Result helpers report responses, failures with indexes and counts")
    func resultHelpers() async throws {
        let transport = ScriptedTransport(failures: [1: 9, 3: 9])
        let batch = BatchManager(provider: Provider<Item>(transport: transport))
        let result = await batch.run(items(5))
        #expect(!result.allSucceeded)
        #expect(result.responses.count == 3)
        #expect(try result.responses.map { try $0.decode(Value.self).value } == [0, 2, 4])
        #expect(result.failures.map(\.index) == [1, 3])
        #expect(result.failures.allSatisfy { $0.error.statusCode == 503 })
        #expect(result.summary == BatchSummary(total: 5, succeeded: 3, failed: 2, cancelled: 0, rounds: 1))
        #expect(throws: NetworkError.self) { try result.decode(as: Value.self) }
        let each = result.decodeEach(as: Value.self)
        #expect(each.map { (try? $0.get())?.value } == [0, nil, 2, nil, 4])
    }
}
