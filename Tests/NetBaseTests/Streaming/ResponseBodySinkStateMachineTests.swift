import NetToolbox
import Foundation
import Testing

@testable import NetBase

/// Every transition of a streamed body's sink, with readers and end waiters as numbers so what
/// each action hands out can be counted.
@Suite("Response body sink state machine")
struct ResponseBodySinkStateMachineTests {
    typealias Machine = ResponseBodySinkStateMachine<Int, Int>

    /// Passes a mutating call's answer to `#expect`, which cannot capture a mutated value itself.
    func step<T>(_ answer: T) -> T { answer }

    /// A callback that records that it ran.
    final class Flag: Sendable {
        let ran = Locked(0)
        var handler: @Sendable () -> Void { { self.ran.withLock { $0 += 1 } } }
        var count: Int { ran.withLock { $0 } }
    }

    func chunk(_ count: Int) -> Data { Data(repeating: 7, count: count) }

    // MARK: yield

    @Test("A chunk waits in the buffer while no reader waits, and fills it until there is no room")
    func yieldBuffers() {
        var machine = Machine(capacity: 10)
        #expect(machine.hasRoom)
        #expect(step(machine.yield(chunk(6))).description == "none")
        #expect(machine.buffer.bytes == 6 && machine.hasRoom)
        _ = machine.yield(chunk(4))
        #expect(machine.buffer.bytes == 10 && !machine.hasRoom && machine.delivered == 10)
        #expect(step(machine.yield(Data())).description == "none")
        #expect(machine.delivered == 10, "an empty chunk is not counted")
    }

    @Test("A chunk goes straight to a waiting reader, which is then no longer waiting")
    func yieldToWaitingReader() {
        var machine = Machine(capacity: 10)
        #expect(step(machine.read(1)).description == "none")
        guard case .waiting(1) = machine.reader else {
            Issue.record("reader not waiting")
            return
        }
        guard case .resumeReader(let reader, .chunk(let data), nil) = machine.yield(chunk(3)) else {
            Issue.record("not resumed")
            return
        }
        #expect(reader == 1 && data.count == 3 && machine.buffer.isEmpty)
        guard case .idle = machine.reader else {
            Issue.record("reader still waiting")
            return
        }
        #expect(machine.delivered == 3)
    }

    @Test("Chunks after the end or after the reader left are dropped")
    func yieldAfterEnd() {
        var ended = Machine(capacity: 10)
        _ = ended.finish(nil)
        #expect(step(ended.yield(chunk(3))).description == "none")
        #expect(ended.buffer.isEmpty && ended.delivered == 0)
        var cancelled = Machine(capacity: 10)
        _ = cancelled.cancel()
        #expect(step(cancelled.yield(chunk(3))).description == "none")
        #expect(cancelled.buffer.isEmpty && cancelled.delivered == 0 && !cancelled.hasRoom)
    }

    // MARK: read

    @Test("A read takes buffered chunks in order, then waits while the producer runs")
    func readInOrder() {
        var machine = Machine(capacity: 100)
        _ = machine.yield(chunk(1))
        _ = machine.yield(chunk(2))
        #expect(step(machine.read(1)).description == "resumeReader(chunk(1), drained: no)")
        #expect(step(machine.read(2)).description == "resumeReader(chunk(2), drained: no)")
        #expect(step(machine.read(3)).description == "none")
        #expect(step(machine.read(4)).description == "resumeReader(failure(transport), drained: no)", "a second reader is failed, never dropped")
        guard case .waiting(3) = machine.reader else {
            Issue.record("the first reader must still wait")
            return
        }
    }

    @Test("After the end a read drains what is left, then gets the end, again and again")
    func readAfterEnd() {
        var machine = Machine(capacity: 100)
        _ = machine.yield(chunk(5))
        _ = machine.finish(nil)
        #expect(step(machine.read(1)).description == "resumeReader(chunk(5), drained: no)")
        #expect(step(machine.read(2)).description == "resumeReader(end, drained: no)")
        #expect(step(machine.read(3)).description == "resumeReader(end, drained: no)")
        var failed = Machine(capacity: 100)
        _ = failed.yield(chunk(5))
        _ = failed.finish(.timedOut)
        #expect(step(failed.read(1)).description == "resumeReader(chunk(5), drained: no)", "bytes before the failure are still read")
        #expect(step(failed.read(2)).description == "resumeReader(failure(timedOut), drained: no)")
    }

    @Test("A read that drains the buffer to half hands out the paused producer's callback, once")
    func readResumesProducer() {
        let flag = Flag()
        var machine = Machine(capacity: 10)
        for _ in 0..<4 { _ = machine.yield(chunk(3)) }
        #expect(!machine.hasRoom)
        #expect(step(machine.whenDrained(flag.handler)).description == "none")
        #expect(step(machine.read(1)).description == "resumeReader(chunk(3), drained: no)", "9 bytes left: above half")
        #expect(step(machine.read(2)).description == "resumeReader(chunk(3), drained: no)", "6 bytes left: above half")
        guard case .resumeReader(3, _, let drained?) = machine.read(3) else {
            Issue.record("no drained callback")
            return
        }
        drained()
        #expect(flag.count == 1)
        #expect(step(machine.read(4)).description == "resumeReader(chunk(3), drained: no)", "handed out once")
    }

    // MARK: producer callbacks

    @Test("whenDrained runs at once when the buffer is at most half full, the reader left or the producer ended")
    func whenDrainedAtOnce() {
        var machine = Machine(capacity: 10)
        _ = machine.yield(chunk(5))
        #expect(step(machine.whenDrained {}).description == "run")
        _ = machine.yield(chunk(5))
        #expect(step(machine.whenDrained {}).description == "none")
        var cancelled = Machine(capacity: 10)
        _ = cancelled.cancel()
        #expect(step(cancelled.whenDrained {}).description == "run")
        var ended = Machine(capacity: 10)
        _ = ended.yield(chunk(10))
        _ = ended.finish(nil)
        #expect(step(ended.whenDrained {}).description == "run")
    }

    @Test("onCancel is kept while the producer runs, runs at once after the reader left, and is dropped after the end")
    func onCancel() {
        var machine = Machine(capacity: 10)
        #expect(step(machine.onCancel {}).description == "none")
        #expect(step(machine.cancel()).description == "cancelled(reader: no, onCancel: yes, onDrained: no)")
        #expect(step(machine.onCancel {}).description == "run")
        var ended = Machine(capacity: 10)
        _ = ended.finish(nil)
        #expect(step(ended.onCancel {}).description == "none")
        #expect(step(ended.cancel()).description == "cancelled(reader: no, onCancel: no, onDrained: no)")
    }

    // MARK: finish

    @Test("finish hands out the waiting reader with the end and every end waiter; a second finish does nothing")
    func finish() {
        var machine = Machine(capacity: 10)
        _ = machine.awaitEnd(1)
        _ = machine.awaitEnd(2)
        _ = machine.read(3)
        guard case .ended(reader: 3, .failure(let failure), let waiters, let error) = machine.finish(.timedOut) else {
            Issue.record("not ended")
            return
        }
        #expect(failure.code == .timedOut && waiters == [1, 2] && error?.code == .timedOut)
        guard case .idle = machine.reader else {
            Issue.record("reader still waiting")
            return
        }
        #expect(step(machine.finish(nil)).description == "none")
        #expect(step(machine.awaitEnd(4)).description == "resumeEndWaiter(timedOut)")
        var idle = Machine(capacity: 10)
        #expect(step(idle.finish(nil)).description == "ended(reader: no, endWaiters: 0)")
    }

    // MARK: cancel

    @Test("cancel drops the buffer, hands out the waiting reader and both producer callbacks, and happens once")
    func cancel() {
        var machine = Machine(capacity: 10)
        _ = machine.onCancel {}
        _ = machine.read(1)
        guard case .cancelled(reader: 1, onCancel: .some, onDrained: nil) = machine.cancel() else {
            Issue.record("not cancelled")
            return
        }
        #expect(machine.isCancelled && !machine.hasRoom)
        #expect(step(machine.cancel()).description == "none")
        #expect(step(machine.read(2)).description == "resumeReader(failure(cancelled), drained: no)")
        var paused = Machine(capacity: 10)
        _ = paused.yield(chunk(10))
        _ = paused.whenDrained {}
        #expect(step(paused.cancel()).description == "cancelled(reader: no, onCancel: no, onDrained: yes)", "a paused producer resumes to see it")
        #expect(paused.buffer.isEmpty)
    }

    @Test("The end waiters outlive a cancellation: they wait for the producer's own end")
    func endWaitersOutliveCancel() {
        var machine = Machine(capacity: 10)
        _ = machine.awaitEnd(1)
        _ = machine.cancel()
        #expect(step(machine.finish(.cancelled)).description == "ended(reader: no, endWaiters: 1)")
    }
}
