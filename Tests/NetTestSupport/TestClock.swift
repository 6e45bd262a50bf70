import NetToolbox
import NetCore

/// A clock that moves only when something sleeps on it or the test advances it: a sleep returns
/// at once, having moved the clock on by its duration, so retry waits and deadlines are exact
/// and cost no wall time. Inject it with `configuration.clock = clock` (and `stub.clock`).
package final class TestClock: NetClock {
    private let origin = ContinuousClock.now
    private let state = Locked((elapsed: Duration.zero, sleeps: [Duration]()))

    package init() {}

    package var now: ContinuousClock.Instant { origin + state.withLock { $0.elapsed } }

    /// How far the clock moved since it was made.
    package var elapsed: Duration { state.withLock { $0.elapsed } }

    /// Every sleep asked of the clock, in order.
    package var sleeps: [Duration] { state.withLock { $0.sleeps } }

    /// Moves the clock on by `duration`, as time passing outside any sleep would.
    package func advance(by duration: Duration) {
        state.withLock { $0.elapsed += duration }
    }

    package func sleep(for duration: Duration) async throws {
        try Task.checkCancellation()
        state.withLock {
            $0.elapsed += duration
            $0.sleeps.append(duration)
        }
    }
}
