import NetToolbox
import NetBase
import Foundation

/// One shared timer that ends overdue URLSession exchanges and polls transfer progress.
///
/// A timer per request costs a wake-up of Dispatch's timer thread on every request; this one
/// ticks every 20 ms only while exchanges are in flight (and a second after), so a deadline fires
/// at most one tick late. An ``Exchange`` is watched from just before its caller waits until its
/// state machine has no one left waiting (``ExchangeStateMachine/hasDeadline``).
final class DeadlineWatcher: Sendable {
    static let shared = DeadlineWatcher()

    private static let interval = DispatchTimeInterval.milliseconds(20)
    /// Progress is polled every fifth tick (100 ms).
    private static let progressEvery = 5
    /// Idle ticks before the timer stops.
    private static let idleTicksBeforeStop = 50

    private struct State {
        var exchanges: [ObjectIdentifier: Exchange] = [:]
        var timer: (any DispatchSourceTimer)?
        var ticks = 0
        var idleTicks = 0
    }

    private let state = Locked(State())

    /// Watches `exchange` until ``unwatch(_:)``.
    func watch(_ exchange: Exchange) {
        state.withLock { state in
            state.exchanges[ObjectIdentifier(exchange)] = exchange
            state.idleTicks = 0
            if state.timer == nil { state.timer = makeTimer() }
        }
    }

    /// Stops watching `exchange`.
    func unwatch(_ exchange: Exchange) {
        _ = state.withLock { $0.exchanges.removeValue(forKey: ObjectIdentifier(exchange)) }
    }

    /// How many exchanges are watched now.
    var watchedCount: Int { state.withLock { $0.exchanges.count } }

    /// Whether `exchange` is watched now.
    func isWatched(_ exchange: Exchange) -> Bool { state.withLock { $0.exchanges[ObjectIdentifier(exchange)] != nil } }

    private func makeTimer() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + Self.interval, repeating: Self.interval, leeway: .milliseconds(5))
        // Strong: the watcher is a process-wide singleton (a weak reference's side table would
        // only show up as a leak at exit).
        timer.setEventHandler { [self] in tick() }
        timer.resume()
        return timer
    }

    private func tick() {
        let (exchanges, reports) = state.withLock { state -> ([Exchange], Bool) in
            state.ticks += 1
            guard !state.exchanges.isEmpty else {
                state.idleTicks += 1
                if state.idleTicks >= Self.idleTicksBeforeStop {
                    state.timer?.cancel()
                    state.timer = nil
                }
                return ([], false)
            }
            return (Array(state.exchanges.values), state.ticks % Self.progressEvery == 0)
        }
        // Outside the watcher's lock: reading a deadline takes the exchange's lock, and the two
        // are never held together.
        let now = ContinuousClock.now
        for exchange in exchanges where exchange.deadline <= now { exchange.stop(because: .timedOut) }
        guard reports else { return }
        for exchange in exchanges where exchange.reportsProgress { exchange.reportProgress() }
    }
}
