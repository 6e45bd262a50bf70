import Foundation
import NetBatch
import NetCore
import NetTestSupport
import Testing

/// `print(event)` and `print(result)` read as short lines, never as a dump of `Result<…>`.
@Suite("Batch descriptions")
struct DescriptionTests {
    /// Item 1 cannot connect; the others answer 200 with a 2-byte body in 12 ms.
    private func provider() -> Provider<Item> {
        Provider<Item>(
            transport: stub { request in
                if itemNumber(request) == 1 { throw NetworkError.connectionFailed(host: "batch.test", reason: "refused") }
                return Response(
                    statusCode: 200, data: Data("{}".utf8), request: request,
                    metrics: ResponseMetrics(startDate: Date(), duration: .milliseconds(12)))
            })
    }

    @Test("every event describes itself in one line")
    func events() async {
        let log = EventLog()
        let batch = BatchManager(
            provider: provider(), configuration: BatchConfiguration(maxConcurrent: 1, maxRetries: 1, retryTiming: .immediately))
        _ = await batch.run(items(2), onEvent: log.handler)
        #expect(
            log.all.map(\.description) == [
                "round 1 started with 2 items",
                "item 0 started attempt 1",
                "item 0 finished attempt 1: 200 GET https://batch.test/items/0 (2 bytes, 12 ms)",
                "item 1 started attempt 1",
                "item 1 failed attempt 1: Could not connect to batch.test: refused. Is the server running and reachable?",
                "item 1 will start attempt 2 in 0.0 seconds",
                "item 1 started attempt 2",
                "item 1 failed attempt 2: Could not connect to batch.test: refused. Is the server running and reachable?",
                "batch finished: 2 items: 1 succeeded, 1 failed, 0 cancelled in 1 round(s)",
            ])
        for event in log.all {
            #expect(!"\(event)".contains("Swift.Result"))
            #expect(!"\(event)".contains("NetCore."))
        }
    }

    @Test("a result and its items describe themselves")
    func results() async {
        let batch = BatchManager(
            provider: provider(), configuration: BatchConfiguration(maxConcurrent: 1, maxRetries: 2, retryTiming: .immediately))
        let result = await batch.run(items(2))
        #expect("\(result)" == "2 items: 1 succeeded, 1 failed, 0 cancelled in 1 round(s)")
        #expect("\(result[0])" == "item 0: 200 GET https://batch.test/items/0 (2 bytes, 12 ms)")
        #expect(
            "\(result[1])" == "item 1 failed after 3 attempts: Could not connect to batch.test: refused. Is the server running and reachable?")
    }

    @Test("a cancelled item says so")
    func cancelled() {
        let item = BatchItemResult<Item>(index: 4, target: .number(4), result: .failure(.cancelled), attempts: 0, wasCancelled: true)
        #expect(item.description == "item 4 cancelled before it started")
        let running = BatchItemResult<Item>(index: 5, target: .number(5), result: .failure(.cancelled), attempts: 1, wasCancelled: true)
        #expect(running.description == "item 5 cancelled")
    }
}
