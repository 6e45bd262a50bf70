import Foundation
import Synchronization
import Testing

@testable import NetBase
@testable import NetCurl

/// Every transition of a curl job's answer, late and repeated events included: the caller's
/// continuation is handed out by exactly one transition, whatever order the events come in.
@Suite("Curl job state machine")
struct CurlJobStateMachineTests {
    /// Counts how often it was resumed, and with what.
    final class Caller: CurlJobCaller {
        let resumes = Atomic<Int>(0)
        let successes = Atomic<Int>(0)
        func resume(with result: Result<Int, any Error>) {
            resumes.add(1, ordering: .relaxed)
            if case .success = result { successes.add(1, ordering: .relaxed) }
        }
    }

    /// Counts how often it was finished, and how often with an error.
    final class Stream: CurlJobStream {
        let finishes = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        func finish(throwing error: NetworkError?) {
            finishes.add(1, ordering: .relaxed)
            if error != nil { failures.add(1, ordering: .relaxed) }
        }
    }

    typealias Machine = CurlJobStateMachine<Caller, Stream>

    enum Event: CaseIterable {
        case head, succeeded, failed

        func apply(to machine: inout Machine) -> Machine.Action {
            switch self {
            case .head: machine.headArrived(1)
            case .succeeded: machine.ended(.success(2))
            case .failed: machine.ended(.failure(NetworkError.timedOut))
            }
        }
    }

    /// Every sequence of `length` events.
    static func sequences(of length: Int) -> [[Event]] {
        guard length > 0 else { return [[]] }
        return sequences(of: length - 1).flatMap { prefix in Event.allCases.map { prefix + [$0] } }
    }

    @Test("A job received whole answers its caller once, with the first end")
    func wholeResponse() {
        let caller = Caller()
        var machine = Machine(caller: caller, stream: nil)
        #expect(machine.isAwaitingReply)
        machine.ended(.success(7)).run()
        #expect(!machine.isAwaitingReply)
        machine.ended(.failure(NetworkError.cancelled)).run()
        #expect(caller.resumes.load(ordering: .relaxed) == 1)
        #expect(caller.successes.load(ordering: .relaxed) == 1)
    }

    @Test("A head arriving for a job without a stream answers nobody")
    func headWithoutStream() {
        let caller = Caller()
        var machine = Machine(caller: caller, stream: nil)
        let action = machine.headArrived(1)
        guard case .none = action else {
            Issue.record("a head went out for a job received whole: \(action)")
            return
        }
        #expect(machine.isAwaitingReply)
    }

    @Test("A stream's head goes to the caller and its end to the stream, each once")
    func streamedResponse() {
        let caller = Caller(), stream = Stream()
        var machine = Machine(caller: caller, stream: stream)
        machine.headArrived(1).run()
        machine.headArrived(1).run()
        #expect(caller.resumes.load(ordering: .relaxed) == 1)
        #expect(!machine.isAwaitingReply)
        machine.ended(.failure(NetworkError.timedOut)).run()
        machine.ended(.success(2)).run()
        #expect(caller.resumes.load(ordering: .relaxed) == 1)
        #expect(stream.finishes.load(ordering: .relaxed) == 1)
        #expect(stream.failures.load(ordering: .relaxed) == 1)
    }

    @Test("A stream that ends before its head answers the caller with the end and never finishes the stream")
    func streamEndingBeforeHead() {
        let caller = Caller(), stream = Stream()
        var machine = Machine(caller: caller, stream: stream)
        machine.ended(.failure(NetworkError.cancelled)).run()
        machine.headArrived(1).run()
        #expect(caller.resumes.load(ordering: .relaxed) == 1)
        #expect(caller.successes.load(ordering: .relaxed) == 0)
        #expect(stream.finishes.load(ordering: .relaxed) == 0)
    }

    @Test("In every order of heads and ends, the caller is resumed exactly once and a stream finished at most once")
    func everySequence() {
        for streams in [false, true] {
            for events in Self.sequences(of: 4) {
                let caller = Caller(), stream = Stream()
                var machine = Machine(caller: caller, stream: streams ? stream : nil)
                for event in events { event.apply(to: &machine).run() }
                let ended = events.contains { $0 != .head }
                let headFirst = streams && events.first == .head
                let resumes = caller.resumes.load(ordering: .relaxed)
                #expect(resumes == (ended || headFirst ? 1 : 0), "\(events), stream: \(streams)")
                #expect(stream.finishes.load(ordering: .relaxed) == (headFirst && ended ? 1 : 0), "\(events), stream: \(streams)")
            }
        }
    }
}
