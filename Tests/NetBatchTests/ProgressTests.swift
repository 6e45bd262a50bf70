import Foundation
import NetBatch
import NetCore
import Testing

@Suite("Batch progress events")
struct ProgressTests {
    @Test("Events report rounds, each attempt's start and finish, retries and the final counts")
    func eventSequence() async {
        let transport = ScriptedTransport(failures: [1: 1, 2: 100])
        let log = EventLog()
        let batch = BatchManager(
            provider: Provider<Item>(transport: transport),
            configuration: BatchConfiguration(maxConcurrent: 1, maxRetries: 1, retryTiming: .immediately))
        _ = await batch.run(items(3), onEvent: log.handler)
        #expect(
            log.all.map(describe) == [
                "round 1 (3)",
                "start 0#1", "finish 0#1 success",
                "start 1#1", "finish 1#1 failure", "retry 1#2 after 0.0 seconds", "start 1#2", "finish 1#2 success",
                "start 2#1", "finish 2#1 failure", "retry 2#2 after 0.0 seconds", "start 2#2", "finish 2#2 failure",
                "finished 2/1/0 in 1",
            ])
    }

    @Test("The event stream of a started batch ends with the summary of its result")
    func streamEndsWithSummary() async {
        let batch = BatchManager(
            provider: Provider<Item>(transport: StubTransport()),
            configuration: BatchConfiguration(maxConcurrent: 3))
        let running = batch.start(items(50))
        var started = Set<Int>()
        var finished = Set<Int>()
        var last: BatchEvent?
        for await event in running.events {
            switch event {
            case .itemStarted(let index, _): started.insert(index)
            case .itemFinished(let index, _, _):
                #expect(started.contains(index))
                finished.insert(index)
            default: break
            }
            last = event
        }
        let result = await running.result()
        #expect(finished == Set(0..<50))
        guard case .finished(let summary)? = last else {
            Issue.record("the last event is not .finished")
            return
        }
        #expect(summary == result.summary)
        #expect(summary.succeeded == 50)
    }
}
