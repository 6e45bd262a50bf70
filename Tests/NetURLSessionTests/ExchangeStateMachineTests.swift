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

        static let threeBytes = Data("abc".utf8)
        static let elevenBytes = Data(count: 11)

        /// Sends the event; `wait` brings caller `id` and `start` task `id`.
        func send(to machine: inout Machine, id: Int = 1) -> Machine.Action {
            switch self {
            case .wait: machine.wait(id)
            case .start: machine.start(id)
            case .cancel: machine.stop(.cancelled)
            case .timeOut: machine.stop(.timedOut)
            case .fail: machine.stop(.failed(.invalidResponse(reason: "test")))
            case .head: machine.streamedHeadReceived()
            case .data: machine.dataReceived(Self.threeBytes, limit: 10)
            case .tooMuch: machine.dataReceived(Self.elevenBytes, limit: 10)
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

    /// What one sequence of events brought in and handed out, as bit sets over the positions of
    /// the events (a caller or task is numbered by the position of the event that brought it).
    private struct Ledger {
        var callersIn: UInt32 = 0, callersOut: UInt32 = 0
        var tasksIn: UInt32 = 0, tasksRan: UInt32 = 0, tasksCancelled: UInt32 = 0

        /// Sends `event` as the event at `position` and records what it handed out; returns the
        /// rule it broke, if any.
        mutating func send(_ event: Event, at position: Int, to machine: inout Machine) -> String? {
            if event == .wait { callersIn |= 1 << position }
            if event == .start { tasksIn |= 1 << position }
            switch event.send(to: &machine, id: position) {
            case .failCaller(let caller, _), .deliverHead(let caller), .finishCaller(let caller, _):
                return Self.add(caller, to: &callersOut, "a caller handed out twice")
            case .cancelTask(let task, let recipient, _):
                let cancelledTwice = Self.add(task, to: &tasksCancelled, "a task cancelled twice")
                guard case .caller(let caller) = recipient else { return cancelledTwice }
                return Self.add(caller, to: &callersOut, "a caller handed out twice") ?? cancelledTwice
            case .startTask(let task): return Self.add(task, to: &tasksRan, "a task started twice")
            case .cancelUnstartedTask(let task): return Self.add(task, to: &tasksCancelled, "a task cancelled twice")
            case .none, .forwardToStream, .moveDownload, .finishStream: return nil
            }
        }

        /// Adds `id` to `set`; `twice` if it was there.
        private static func add(_ id: Int, to set: inout UInt32, _ twice: String) -> String? {
            let bit: UInt32 = 1 << id
            defer { set |= bit }
            return set & bit == 0 ? nil : twice
        }

        /// The rule `machine`, after the sequence, breaks, if any.
        func broken(by machine: Machine) -> String? {
            if callersOut & ~callersIn != 0 { return "a caller handed out that never waited" }
            if tasksRan & ~tasksIn != 0 || tasksRan.nonzeroBitCount > 1 { return "a task ran that was never started, or two did" }
            if case .created = machine.state { return nil }
            if !machine.hasDeadline, callersOut != callersIn { return "a caller left waiting after the end" }
            if case .stopped = machine.state, tasksRan & ~tasksCancelled != 0 { return "a stopped exchange left its task running" }
            return nil
        }
    }

    /// Checks every sequence that extends `sequence` (sent to `machine`, recorded in `ledger`)
    /// by one to `depth` more events; counts them in `checked` and adds each rule broken to `broken`.
    private func checkEveryExtension(
        of sequence: inout [Event], machine: Machine, ledger: Ledger, depth: Int, checked: inout Int, broken: inout [String]
    ) {
        guard depth > 0 else { return }
        for event in Event.allCases {
            var machine = machine, ledger = ledger
            sequence.append(event)
            checked += 1
            if let rule = ledger.send(event, at: sequence.count - 1, to: &machine) ?? ledger.broken(by: machine) {
                broken.append("\(rule): \(sequence)")
            }
            checkEveryExtension(of: &sequence, machine: machine, ledger: ledger, depth: depth - 1, checked: &checked, broken: &broken)
            sequence.removeLast()
        }
    }

    /// Each sequence is one path through a tree walked depth first: its prefix's machine and
    /// ledger are copied, not replayed, and a broken rule is collected rather than expected on the
    /// spot, so the proof stays cheap under the sanitizers.
    @Test("In every sequence of up to five events each caller is handed out once, and once the exchange ends every caller was")
    func everyCallerIsAnsweredExactlyOnce() {
        var sequence: [Event] = [], checked = 0, broken: [String] = []
        checkEveryExtension(of: &sequence, machine: Machine(), ledger: Ledger(), depth: 5, checked: &checked, broken: &broken)
        #expect(checked == 177_155, "11 + 11² + … + 11⁵ sequences")
        // The count, not the array: a failed expectation prints its operands, all of them.
        let brokenCount = broken.count
        #expect(brokenCount == 0, "sequences broke a rule, the first: \(broken.prefix(10).joined(separator: "; "))")
    }
}
