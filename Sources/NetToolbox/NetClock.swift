/// Where the pipeline reads the time and waits between attempts: the system's continuous clock,
/// or a test's clock that moves only when told, so deadline and retry tests never wait for real.
package protocol NetClock: Sendable {
    /// The current instant.
    var now: ContinuousClock.Instant { get }
    /// Waits `duration`; throws `CancellationError` when the task is cancelled.
    func sleep(for duration: Duration) async throws
}

/// The system's continuous clock: what every provider uses unless a test injects another.
package struct SystemClock: NetClock {
    package init() {}
    package var now: ContinuousClock.Instant { .now }
    package func sleep(for duration: Duration) async throws { try await Task.sleep(for: duration) }
}
