import Foundation
import Testing

@testable import NetBase
@testable import NetCore
@testable import NetURLSession

/// Every transition of the URLSession exchange's lifecycle, late events included, with callers
/// and tasks as numbers so what each action hands out can be counted.
@Suite("Exchange state machine")
struct ExchangeStateMachineTests {
    typealias Machine = ExchangeStateMachine<Int, Int>

    /// The events, by name, so each state can be checked against all of them.
    enum Event: String, CaseIterable, CustomStringConvertible {
        case wait, start, cancel, timeOut, fail, head, data, tooMuch, complete, downloadFinished, downloadSettled

        var description: String { rawValue }

        /// Sends the event; `wait` brings caller `id` and `start` task `id`.
        func send(to machine: inout Machine, id: Int = 1) -> Machine.Action {
            switch self {
            case .wait: machine.wait(id)
            case .start: machine.start(id)
            case .cancel: machine.stop(.cancelled)
            case .timeOut: machine.stop(.timedOut)
            case .fail: machine.stop(.failed(.invalidResponse(reason: "test")))
            case .head: machine.streamedHeadReceived()
            case .data: machine.dataReceived(Data("abc".utf8), limit: 10)
            case .tooMuch: machine.dataReceived(Data(count: 11), limit: 10)
            case .complete: machine.taskCompleted()
            case .downloadFinished: machine.downloadFinished()
            case .downloadSettled: machine.downloadSettled()
            }
        }
    }

    /// Passes a mutating call's answer to `#expect`, which cannot capture a mutated value itself.
    func step<T>(_ answer: T) -> T { answer }

    /// A machine driven through `events` (each must change the state).
    private func machine(after events: [Event], sourceLocation: SourceLocation = #_sourceLocation) -> Machine {
        var machine = Machine()
        for event in events {
            let before = machine.state.description
            _ = event.send(to: &machine)
            if machine.state.description == before { Issue.record("\(event) changed nothing in the setup", sourceLocation: sourceLocation) }
        }
        return machine
    }

    /// Sends `event` and returns the action and the new state, as text.
    private func step(_ events: [Event], then event: Event) -> (action: String, state: String) {
        var machine = machine(after: events)
        let action = event.send(to: &machine)
        return (action.description, machine.state.description)
    }

    // MARK: before the task

    @Test("created: a caller waits; a stop first leaves nobody to answer yet")
    func created() {
        #expect(Machine().state.description == "created")
        #expect(step([], then: .wait) == ("none", "waiting"))
        #expect(step([], then: .cancel) == ("none", "stoppedBeforeStart(cancelled)"))
        #expect(step([], then: .start) == ("cancelUnstartedTask", "created"), "a task made before anyone waits never runs")
        for event in [Event.head, .data, .tooMuch, .complete, .downloadFinished, .downloadSettled] {
            #expect(step([], then: event) == ("none", "created"), "\(event)")
        }
    }

    @Test("waiting: start runs the task with the caller's continuation; a stop fails the caller at once")
    func waiting() {
        #expect(step([.wait], then: .start) == ("startTask", "running(body: 0)"))
        #expect(step([.wait], then: .cancel) == ("failCaller(cancelled)", "stoppedBeforeStart(cancelled)"))
        #expect(step([.wait], then: .timeOut) == ("failCaller(timedOut)", "stoppedBeforeStart(timedOut)"))
        #expect(step([.wait], then: .fail).state.hasPrefix("stoppedBeforeStart(failed("))
        #expect(step([.wait], then: .wait).action.hasPrefix("failCaller(failed("), "a second caller is answered, never dropped")
        for event in [Event.head, .data, .tooMuch, .complete, .downloadFinished, .downloadSettled] {
            #expect(step([.wait], then: event) == ("none", "waiting"), "\(event)")
        }
        var machine = machine(after: [.wait])
        guard case .failCaller(let caller, _) = machine.stop(.cancelled) else {
            Issue.record("no failCaller")
            return
        }
        #expect(caller == 1)
    }

    @Test("stoppedBeforeStart: start cancels the unstarted task; a late caller is failed; everything else is ignored")
    func stoppedBeforeStart() {
        #expect(step([.wait, .cancel], then: .start) == ("cancelUnstartedTask", "stopped(cancelled)"))
        #expect(step([.wait, .timeOut], then: .start) == ("cancelUnstartedTask", "stopped(timedOut)"))
        #expect(step([.cancel], then: .wait) == ("failCaller(cancelled)", "stoppedBeforeStart(cancelled)"))
        for event in Event.allCases where event != .start && event != .wait {
            #expect(step([.wait, .cancel], then: event) == ("none", "stoppedBeforeStart(cancelled)"), "\(event)")
        }
    }

    // MARK: running

    @Test("running: data is kept in the state, too much stops it, a stop cancels the task and fails the caller")
    func running() {
        let running: [Event] = [.wait, .start]
        #expect(step(running, then: .data) == ("none", "running(body: 3)"))
        var full = machine(after: running + [.data, .data, .data])
        #expect(step(full.dataReceived(Data("a".utf8), limit: 10)).description == "none", "exactly at the limit is kept")
        #expect(step(full.dataReceived(Data("a".utf8), limit: 10)).description.hasPrefix("cancelTask(failing: caller, failed("))
        #expect(full.stopReason?.error.code == .responseTooLarge && full.receivedBytes == 0)
        #expect(step(running, then: .tooMuch).action.hasPrefix("cancelTask(failing: caller, failed("))
        #expect(step(running, then: .cancel) == ("cancelTask(failing: caller, cancelled)", "stopped(cancelled)"))
        #expect(step(running, then: .timeOut) == ("cancelTask(failing: caller, timedOut)", "stopped(timedOut)"))
        #expect(step(running, then: .fail).action.hasPrefix("cancelTask(failing: caller, failed("))
        #expect(step(running, then: .head) == ("deliverHead", "streaming"))
        #expect(step(running, then: .downloadFinished) == ("moveDownload", "claimedByDownload"))
        #expect(step(running, then: .start) == ("cancelUnstartedTask", "running(body: 0)"), "a second task never runs")
        #expect(step(running, then: .downloadSettled) == ("none", "running(body: 0)"))
    }

    @Test("running: completion hands the caller the body the state kept, and the task and caller to a stop")
    func runningHandsOut() {
        var machine = machine(after: [.wait, .start, .data, .data])
        guard case .finishCaller(let caller, let body) = machine.taskCompleted() else {
            Issue.record("no finishCaller")
            return
        }
        #expect(caller == 1 && body == Data("abcabc".utf8))
        #expect(machine.state.description == "completed")
        var stopped = self.machine(after: [.wait, .start])
        #expect(stopped.task == 1)
        guard case .cancelTask(let task, .caller(let failed), _) = stopped.stop(.cancelled) else {
            Issue.record("no cancelTask")
            return
        }
        #expect(task == 1 && failed == 1 && stopped.task == nil)
    }

    // MARK: streaming

    @Test("streaming: data goes to the stream, a stop cancels the task and fails the reader, completion ends the stream")
    func streaming() {
        let streaming: [Event] = [.wait, .start, .head]
        #expect(machine(after: streaming).isStreaming)
        #expect(machine(after: streaming).task == 1)
        #expect(step(streaming, then: .data) == ("forwardToStream", "streaming"))
        #expect(step(streaming, then: .tooMuch) == ("forwardToStream", "streaming"), "a stream's limit is the sink's")
        #expect(step(streaming, then: .cancel) == ("cancelTask(failing: stream, cancelled)", "stopped(cancelled)"))
        #expect(step(streaming, then: .timeOut) == ("cancelTask(failing: stream, timedOut)", "stopped(timedOut)"))
        #expect(step(streaming, then: .complete) == ("finishStream", "completed"))
        for event in [Event.head, .downloadFinished, .downloadSettled] {
            #expect(step(streaming, then: event) == ("none", "streaming"), "\(event)")
        }
    }

    // MARK: downloads

    @Test("claimedByDownload: stops can no longer win; settling answers the caller")
    func claimedByDownload() {
        let claimed: [Event] = [.wait, .start, .downloadFinished]
        #expect(step(claimed, then: .downloadSettled) == ("finishCaller(body: 0)", "completed"))
        #expect(machine(after: claimed).hasDeadline)
        for event in Event.allCases where event != .downloadSettled && event != .wait && event != .start {
            #expect(step(claimed, then: event) == ("none", "claimedByDownload"), "\(event)")
        }
    }

    // MARK: late events

    @Test(
        "every event after the end is ignored, a late caller is failed and a late task cancelled",
        arguments: [
            [Event.wait, .start, .cancel], [.wait, .start, .timeOut], [.wait, .start, .fail], [.wait, .start, .complete],
            [.wait, .start, .head, .complete], [.wait, .start, .head, .cancel], [.wait, .start, .downloadFinished, .downloadSettled],
            [.wait, .cancel, .start],
        ])
    func lateEvents(ending events: [Event]) {
        let ended = machine(after: events).state.description
        #expect(ended == "completed" || ended.hasPrefix("stopped("))
        #expect(!machine(after: events).hasDeadline)
        for event in Event.allCases {
            let expected = event == .start ? "cancelUnstartedTask" : event == .wait ? "failCaller" : "none"
            let (action, state) = step(events, then: event)
            #expect(action.hasPrefix(expected) && state == ended, "\(event) after \(events)")
        }
    }

    @Test("stopReason names why the exchange stopped, and only then")
    func stopReason() {
        #expect(machine(after: []).stopReason == nil)
        #expect(machine(after: [.wait, .start]).stopReason == nil)
        #expect(machine(after: [.wait, .start, .complete]).stopReason == nil)
        #expect(machine(after: [.cancel]).stopReason?.description == "cancelled")
        #expect(machine(after: [.wait, .start, .timeOut]).stopReason?.description == "timedOut")
        #expect(machine(after: [.wait, .start, .tooMuch]).stopReason?.error.code == .responseTooLarge)
    }

    // MARK: the proof

    @Test("In every sequence of up to five events each caller is handed out once, and once the exchange ends every caller was")
    func everyCallerIsAnsweredExactlyOnce() {
        var sequences: [[Event]] = [[]]
        var checked = 0
        for _ in 1...5 {
            sequences = sequences.flatMap { sequence in Event.allCases.map { sequence + [$0] } }
            for sequence in sequences {
                checked += 1
                var machine = Machine()
                var callersIn: [Int] = [], callersOut: [Int] = [], tasksIn: [Int] = [], tasksRan: [Int] = [], tasksCancelled: [Int] = []
                for (index, event) in sequence.enumerated() {
                    if event == .wait { callersIn.append(index) }
                    if event == .start { tasksIn.append(index) }
                    switch event.send(to: &machine, id: index) {
                    case .failCaller(let caller, _), .deliverHead(let caller), .finishCaller(let caller, _):
                        callersOut.append(caller)
                    case .cancelTask(let task, let recipient, _):
                        tasksCancelled.append(task)
                        if case .caller(let caller) = recipient { callersOut.append(caller) }
                    case .startTask(let task): tasksRan.append(task)
                    case .cancelUnstartedTask(let task): tasksCancelled.append(task)
                    case .none, .forwardToStream, .moveDownload, .finishStream: break
                    }
                }
                #expect(Set(callersOut).count == callersOut.count, "a caller handed out twice: \(sequence)")
                #expect(Set(callersOut).isSubset(of: callersIn), "\(sequence)")
                #expect(Set(tasksCancelled).count == tasksCancelled.count, "a task cancelled twice: \(sequence)")
                #expect(Set(tasksRan).isSubset(of: tasksIn) && tasksRan.count <= 1, "\(sequence)")
                if !machine.hasDeadline, machine.state.description != "created" {
                    #expect(Set(callersOut) == Set(callersIn), "a caller left waiting after the end: \(sequence)")
                }
                if case .stopped = machine.state {
                    #expect(Set(tasksCancelled).isSuperset(of: tasksRan), "a stopped exchange left its task running: \(sequence)")
                }
            }
        }
        #expect(checked > 170_000)
    }
}
