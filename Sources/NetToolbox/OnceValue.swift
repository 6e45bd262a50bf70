import Foundation

/// A value that is set once and awaited by any number of tasks: "resume once, whoever comes
/// first", written one time for every wait in NetKit that several parties may end (a timer and
/// a cancellation, a transfer and its callers, a stream's producer and its readers).
///
/// The first ``resolve(_:)`` wins and resumes every waiter; later calls do nothing. A waiter
/// that arrives after the value gets it at once. A waiter can also ``leave(_:with:)`` alone
/// (its call was cancelled) while the others keep waiting.
///
/// ```swift
/// let done = OnceValue<Bool>()
/// Task { try? await Task.sleep(for: .seconds(1)); done.resolve(true) }
/// let elapsed = await done.value()   // true, or false if someone resolved it first
/// ```
package final class OnceValue<Value: Sendable>: Sendable {
    /// A waiter's place in line, for ``leave(_:with:)``.
    package struct Ticket: Hashable, Sendable {
        fileprivate let number: Int
    }

    private struct State {
        var value: Value?
        var waiters: [Int: CheckedContinuation<Value, Never>] = [:]
        /// Tickets that left before their waiter was stored, with what they leave with.
        var departed: [Int: Value] = [:]
        var nextTicket = 0
    }

    // Every field lives in this mutex; continuations are resumed after it is released.
    private let state = Locked(State())

    /// Creates an unset value.
    package init() {}

    /// The value, if it was set.
    package var current: Value? { state.withLock { $0.value } }

    /// How many callers wait for the value now (tests wait for their waiters to arrive).
    var waiterCount: Int { state.withLock { $0.waiters.count } }

    /// Sets the value and resumes every waiter, unless it was set before.
    /// - Returns: `true` when this call set it.
    @discardableResult
    package func resolve(_ value: Value) -> Bool {
        let waiters = state.withLock { state -> [CheckedContinuation<Value, Never>]? in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiters = [:] }
            return Array(state.waiters.values)
        }
        guard let waiters else { return false }
        for waiter in waiters { waiter.resume(returning: value) }
        return true
    }

    /// A ticket for a waiter that may have to ``leave(_:with:)`` before the value is set.
    package func ticket() -> Ticket {
        state.withLock { state in
            state.nextTicket += 1
            return Ticket(number: state.nextTicket)
        }
    }

    /// Waits for the value (or for this ticket's ``leave(_:with:)``).
    package func value(_ ticket: Ticket? = nil) async -> Value {
        let ticket = ticket ?? self.ticket()
        return await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Value? in
                if let value = state.value { return value }
                if let left = state.departed.removeValue(forKey: ticket.number) { return left }
                state.waiters[ticket.number] = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    /// Ends one waiter's wait with `value` while the others go on waiting; nothing happens when
    /// the value was already set.
    /// - Returns: `true` when this waiter left (the value was not set yet).
    @discardableResult
    package func leave(_ ticket: Ticket, with value: Value) -> Bool {
        let (left, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Value, Never>?) in
            guard state.value == nil else { return (false, nil) }
            if let waiter = state.waiters.removeValue(forKey: ticket.number) { return (true, waiter) }
            state.departed[ticket.number] = value
            return (true, nil)
        }
        waiter?.resume(returning: value)
        return left
    }
}
