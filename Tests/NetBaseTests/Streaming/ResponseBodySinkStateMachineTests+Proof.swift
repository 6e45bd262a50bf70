import NetToolbox
import Foundation
import Testing

@testable import NetBase

/// The exhaustive proof over the sink: every sequence of up to five events, each followed by the
/// reader's cancel and the producer's finish, with the continuations and callbacks counted.
extension ResponseBodySinkStateMachineTests {
    enum Event: String, CaseIterable, CustomStringConvertible {
        case yield, finish, fail, read, cancel, awaitEnd, whenDrained, onCancel

        var description: String { rawValue }
    }

    /// Records which callbacks ran, by the position of the event that registered them (the
    /// callbacks are `@Sendable`: the lock makes the box shareable, not the tests concurrent).
    final class Runs: Sendable {
        private let ran = Locked<[Int]>([])
        func handler(_ position: Int) -> Machine.Handler { { self.ran.withLock { $0.append(position) } } }
        /// The positions that ran since the last call.
        func take() -> [Int] {
            ran.withLock { ran in
                let taken = ran
                ran.removeAll(keepingCapacity: true)
                return taken
            }
        }
    }

    /// What one sequence brought in and handed out, as bit sets over the events' positions, and
    /// which producer callbacks it still owes: a callback the machine kept must run exactly once,
    /// unless the producer ended first (it no longer needs one) or registered a newer one of the
    /// same kind (the machine keeps the producer's current callback).
    struct Ledger {
        var readersIn: UInt32 = 0, readersOut: UInt32 = 0, waitersIn: UInt32 = 0, waitersOut: UInt32 = 0
        var handlersRan: UInt32 = 0, drainedOwed: UInt32 = 0, cancelOwed: UInt32 = 0
        var producerEnded = false, readerLeft = false

        /// Sends `event` as the event at `position`, runs the callbacks it hands out and records
        /// it all; returns the rule it broke, if any.
        mutating func send(_ event: Event, at position: Int, to machine: inout Machine, runs: Runs) -> String? {
            let bit: UInt32 = 1 << position
            let action: Machine.Action
            switch event {
            case .yield: action = machine.yield(ResponseBodySinkStateMachineTests.threeBytes)
            case .finish, .fail:
                action = machine.finish(event == .fail ? .timedOut : nil)
                // The producer ended: the callbacks it kept are no longer owed.
                if !producerEnded { drainedOwed = 0; cancelOwed = 0 }
                producerEnded = true
            case .read: readersIn |= bit; action = machine.read(position)
            case .cancel: action = machine.cancel(); readerLeft = true
            case .awaitEnd: waitersIn |= bit; action = machine.awaitEnd(position)
            case .whenDrained:
                action = machine.whenDrained(runs.handler(position))
                // Kept (or run at once, which pays it straight away); a newer one replaces it.
                drainedOwed = bit
            case .onCancel:
                action = machine.onCancel(runs.handler(position))
                if readerLeft || !producerEnded { cancelOwed = bit }
            }
            // Whether a callback ran (so the box's lock is taken only then).
            var rule: String?, ranSome = false
            switch action {
            case .resumeReader(let reader, _, let drained):
                rule = Self.add(reader, to: &readersOut, "a reader resumed twice")
                drained?()
                ranSome = drained != nil
            case .ended(let reader, _, let waiters, _):
                if let reader { rule = Self.add(reader, to: &readersOut, "a reader resumed twice") }
                for waiter in waiters { rule = Self.add(waiter, to: &waitersOut, "an end waiter resumed twice") ?? rule }
            case .cancelled(let reader, let onCancel, let onDrained):
                if let reader { rule = Self.add(reader, to: &readersOut, "a reader resumed twice") }
                onCancel?()
                onDrained?()
                ranSome = onCancel != nil || onDrained != nil
            case .resumeEndWaiter(let waiter, _): rule = Self.add(waiter, to: &waitersOut, "an end waiter resumed twice")
            case .run(let handler):
                handler()
                ranSome = true
            case .none: break
            }
            for ran in ranSome ? runs.take() : [] {
                rule = Self.add(ran, to: &handlersRan, "a producer callback ran twice") ?? rule
                drainedOwed &= ~(1 << ran)
                cancelOwed &= ~(1 << ran)
            }
            if event == .cancel, cancelOwed != 0 || drainedOwed != 0 { rule = rule ?? "the reader left and the producer was not aborted and resumed" }
            return rule
        }

        /// Adds `id` to `set`; `twice` if it was there.
        private static func add(_ id: Int, to set: inout UInt32, _ twice: String) -> String? {
            let bit: UInt32 = 1 << id
            defer { set |= bit }
            return set & bit == 0 ? nil : twice
        }

        /// The rule broken by `machine` in the middle of a sequence: nothing is lost while no
        /// one has given up yet.
        func brokenMidway(by machine: Machine) -> String? {
            let producerRuns = if case .running = machine.producer { true } else { false }
            let waitingReader: UInt32
            if case .waiting(let reader) = machine.reader {
                if !machine.buffer.isEmpty || !producerRuns { return "a reader waits while a chunk or the end is there for it" }
                waitingReader = 1 << reader
            } else {
                waitingReader = 0
            }
            if readersIn & ~readersOut != waitingReader { return "a reader neither answered nor waiting" }
            if waitersIn & ~waitersOut != 0, !producerRuns { return "an end waiter left waiting after the end" }
            if drainedOwed != 0, machine.buffer.bytes <= machine.capacity / 2 || machine.isCancelled {
                return "a paused producer left paused with room in the buffer"
            }
            return nil
        }

        /// The rule broken at the end of a sequence (after the cancel and the finish). The
        /// callbacks the producer kept were checked at the cancel: they must run then.
        var brokenAtEnd: String? {
            if readersOut != readersIn { return "a reader never answered" }
            if waitersOut != waitersIn { return "an end waiter never answered" }
            return nil
        }
    }

    static let threeBytes = Data(repeating: 7, count: 3)

    /// Checks every sequence that extends `sequence` (sent to `machine`, recorded in `ledger`)
    /// by one to `depth` more events, midway and after the cancel and finish appended to it;
    /// counts them in `checked` and adds each rule broken to `broken`.
    private func checkEveryExtension(
        of sequence: inout [Event], machine: Machine, ledger: Ledger, depth: Int, runs: Runs, checked: inout Int, broken: inout [String]
    ) {
        guard depth > 0 else { return }
        for event in Event.allCases {
            var machine = machine, ledger = ledger
            sequence.append(event)
            checked += 1
            if let rule = ledger.send(event, at: sequence.count - 1, to: &machine, runs: runs) ?? ledger.brokenMidway(by: machine) {
                broken.append("\(rule): \(sequence)")
            }
            var ended = machine, endLedger = ledger
            for (offset, last) in [Event.cancel, .finish].enumerated() {
                if let rule = endLedger.send(last, at: sequence.count + offset, to: &ended, runs: runs) {
                    broken.append("\(rule): \(sequence) + \(last)")
                }
            }
            if let rule = endLedger.brokenAtEnd { broken.append("\(rule): \(sequence) + [cancel, finish]") }
            checkEveryExtension(of: &sequence, machine: machine, ledger: ledger, depth: depth - 1, runs: runs, checked: &checked, broken: &broken)
            sequence.removeLast()
        }
    }

    @Test(
        "In every sequence of up to five events nothing is left waiting that could go on, each reader, end waiter and producer callback goes out at most once, and all that must go out have after cancel and finish"
    )
    func everyContinuationIsResumedExactlyOnce() {
        var sequence: [Event] = [], checked = 0, broken: [String] = []
        checkEveryExtension(of: &sequence, machine: Machine(capacity: 4), ledger: Ledger(), depth: 5, runs: Runs(), checked: &checked, broken: &broken)
        #expect(checked == 37_448, "8 + 8² + … + 8⁵ sequences")
        // The count, not the array: a failed expectation prints its operands, all of them.
        let brokenCount = broken.count
        #expect(brokenCount == 0, "sequences broke a rule, the first: \(broken.prefix(10).joined(separator: "; "))")
    }
}
