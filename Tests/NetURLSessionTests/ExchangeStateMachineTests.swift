import Foundation
import Testing

@testable import NetBase
@testable import NetCore
@testable import NetURLSession

/// Every transition of the URLSession exchange's lifecycle, late events included.
@Suite("Exchange state machine")
struct ExchangeStateMachineTests {
    typealias Machine = ExchangeStateMachine

    /// The events, by name, so each state can be checked against all of them.
    enum Event: String, CaseIterable, CustomStringConvertible {
        case start, cancel, timeOut, fail, head, data, complete, downloadFinished, downloadSettled

        var description: String { rawValue }

        func send(to machine: inout Machine) -> Machine.Action {
            switch self {
            case .start: machine.start()
            case .cancel: machine.stop(.cancelled)
            case .timeOut: machine.stop(.timedOut)
            case .fail: machine.stop(.failed(.responseTooLarge(limit: 1)))
            case .head: machine.streamedHeadReceived()
            case .data: machine.dataReceived()
            case .complete: machine.taskCompleted()
            case .downloadFinished: machine.downloadFinished()
            case .downloadSettled: machine.downloadSettled()
            }
        }
    }

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

    // MARK: idle

    @Test("idle: start runs the task; a stop before start fails the caller at once")
    func idle() {
        #expect(Machine().state.description == "idle")
        #expect(step([], then: .start) == ("startTask", "running"))
        #expect(step([], then: .cancel) == ("failCaller(cancelled)", "stoppedBeforeStart(cancelled)"))
        #expect(step([], then: .timeOut) == ("failCaller(timedOut)", "stoppedBeforeStart(timedOut)"))
        #expect(step([], then: .fail).state.hasPrefix("stoppedBeforeStart(failed("))
        for event in [Event.head, .data, .complete, .downloadFinished, .downloadSettled] {
            #expect(step([], then: event) == ("none", "idle"), "\(event)")
        }
    }

    @Test("stoppedBeforeStart: start cancels the unstarted task; everything else is ignored")
    func stoppedBeforeStart() {
        #expect(step([.cancel], then: .start) == ("cancelUnstartedTask(cancelled)", "stopped(cancelled)"))
        #expect(step([.timeOut], then: .start) == ("cancelUnstartedTask(timedOut)", "stopped(timedOut)"))
        for event in Event.allCases where event != .start {
            #expect(step([.cancel], then: event) == ("none", "stoppedBeforeStart(cancelled)"), "\(event)")
        }
    }

    // MARK: running

    @Test("running: data is buffered, a stop cancels the task and fails the caller, completion answers the caller")
    func running() {
        #expect(step([.start], then: .data) == ("bufferBody", "running"))
        #expect(step([.start], then: .cancel) == ("cancelTask(failing: caller, cancelled)", "stopped(cancelled)"))
        #expect(step([.start], then: .timeOut) == ("cancelTask(failing: caller, timedOut)", "stopped(timedOut)"))
        #expect(step([.start], then: .fail).action.hasPrefix("cancelTask(failing: caller, failed("))
        #expect(step([.start], then: .complete) == ("finish(caller)", "completed"))
        #expect(step([.start], then: .head) == ("deliverHead", "streaming"))
        #expect(step([.start], then: .downloadFinished) == ("moveDownload", "claimedByDownload"))
        #expect(step([.start], then: .start) == ("none", "running"))
        #expect(step([.start], then: .downloadSettled) == ("none", "running"))
    }

    // MARK: streaming

    @Test("streaming: data goes to the stream, a stop fails the reader, completion finishes the stream")
    func streaming() {
        let streaming: [Event] = [.start, .head]
        #expect(machine(after: streaming).isStreaming)
        #expect(step(streaming, then: .data) == ("forwardToStream", "streaming"))
        #expect(step(streaming, then: .cancel) == ("cancelTask(failing: stream, cancelled)", "stopped(cancelled)"))
        #expect(step(streaming, then: .timeOut) == ("cancelTask(failing: stream, timedOut)", "stopped(timedOut)"))
        #expect(step(streaming, then: .complete) == ("finish(stream)", "completed"))
        for event in [Event.start, .head, .downloadFinished, .downloadSettled] {
            #expect(step(streaming, then: event) == ("none", "streaming"), "\(event)")
        }
    }

    // MARK: downloads

    @Test("claimedByDownload: stops can no longer win; settling answers the caller")
    func claimedByDownload() {
        let claimed: [Event] = [.start, .downloadFinished]
        #expect(step(claimed, then: .downloadSettled) == ("finish(caller)", "completed"))
        for event in Event.allCases where event != .downloadSettled {
            #expect(step(claimed, then: event) == ("none", "claimedByDownload"), "\(event)")
        }
    }

    // MARK: late events

    @Test(
        "every event after the end is ignored",
        arguments: [
            [Event.start, .cancel], [.start, .timeOut], [.start, .fail], [.start, .complete], [.start, .head, .complete],
            [.start, .head, .cancel], [.start, .downloadFinished, .downloadSettled], [.cancel, .start],
        ])
    func lateEvents(ending events: [Event]) {
        let ended = machine(after: events).state.description
        #expect(ended == "completed" || ended.hasPrefix("stopped("))
        for event in Event.allCases {
            #expect(step(events, then: event) == ("none", ended), "\(event) after \(events)")
        }
    }

    @Test("stopReason names why the exchange stopped, and only then")
    func stopReason() {
        #expect(machine(after: []).stopReason == nil)
        #expect(machine(after: [.start]).stopReason == nil)
        #expect(machine(after: [.start, .complete]).stopReason == nil)
        #expect(machine(after: [.cancel]).stopReason?.description == "cancelled")
        #expect(machine(after: [.start, .timeOut]).stopReason?.description == "timedOut")
        #expect(machine(after: [.start, .fail]).stopReason?.error.code == .responseTooLarge)
    }
}
