import Foundation
import NetCore
import NetTestSupport
import Testing

/// The call's timeout is one deadline over every attempt and every retry wait.
@Suite("Call deadlines")
struct DeadlineTests {
    /// A plugin that asks for a retry after `delay` on every failure.
    static func retrying(after delay: Duration, _ recorder: Recorder) -> RecordingPlugin {
        var plugin = RecordingPlugin("retry", recorder)
        plugin.onFailure = { _, _ in .retry(after: delay) }
        return plugin
    }

    /// A configuration on `clock`.
    static func configuration(_ clock: TestClock, maxAttempts: Int = 3, attemptTimeout: Duration? = nil) -> ProviderConfiguration {
        var configuration = ProviderConfiguration(maxAttempts: maxAttempts, attemptTimeout: attemptTimeout)
        configuration.clock = clock
        return configuration
    }

    @Test("A retry whose wait would pass the deadline is not started; the last real error stands")
    func longRetryAfterIsNotWaited() async {
        let log = TransportLog()
        let recorder = Recorder()
        let clock = TestClock()
        let provider = Provider<TestTarget>(
            transport: StubTransport.counting(log),
            plugins: [Self.retrying(after: .seconds(3600), recorder)],
            configuration: Self.configuration(clock))
        let error = await failure(of: TestTarget(timeout: .seconds(2), sampleResponse: SampleResponse(statusCode: 503)), on: provider)
        #expect(clock.sleeps.isEmpty, "the hour-long wait was never started")
        #expect(error?.statusCode == 503, "the caller gets the last real error: \(String(describing: error))")
        #expect(log.count == 1)
    }

    @Test("A retry wait that ends before the deadline is waited, and the next attempt runs")
    func shortRetryIsWaited() async {
        let log = TransportLog()
        let clock = TestClock()
        let provider = Provider<TestTarget>(
            transport: StubTransport.counting(log), plugins: [Self.retrying(after: .milliseconds(1500), Recorder())],
            configuration: Self.configuration(clock, maxAttempts: 2))
        _ = await failure(of: TestTarget(timeout: .seconds(2), sampleResponse: SampleResponse(statusCode: 503)), on: provider)
        #expect(clock.sleeps == [.milliseconds(1500)])
        #expect(log.all.map(\.timeout) == [.seconds(2), .milliseconds(500)], "the second attempt gets what is left")
    }

    @Test("Each attempt gets what is left of the deadline, capped by attemptTimeout")
    func attemptsShareTheDeadline() async {
        let log = TransportLog()
        let recorder = Recorder()
        let clock = TestClock()
        let provider = Provider<TestTarget>(
            transport: StubTransport.counting(log), plugins: [Self.retrying(after: .milliseconds(50), recorder)],
            configuration: Self.configuration(clock, attemptTimeout: .seconds(5)))
        _ = await failure(of: TestTarget(timeout: .seconds(20), sampleResponse: SampleResponse(statusCode: 500)), on: provider)
        #expect(log.all.map(\.timeout) == [.seconds(5), .seconds(5), .seconds(5)], "attemptTimeout caps each attempt")

        let uncapped = Provider<TestTarget>(
            transport: StubTransport.counting(log), plugins: [Self.retrying(after: .milliseconds(100), recorder)],
            configuration: Self.configuration(clock))
        let before = log.count
        _ = await failure(of: TestTarget(timeout: .seconds(20), sampleResponse: SampleResponse(statusCode: 500)), on: uncapped)
        let later = log.all[before...].map(\.timeout)
        #expect(later == [.seconds(20), .milliseconds(19_900), .milliseconds(19_800)], "each attempt sees what is left")
    }

    @Test("A call whose clock passes the deadline while an attempt runs ends timed out, even when the attempt succeeds")
    func lateSuccessIsATimeout() async {
        let clock = TestClock()
        let late = StubTransport(
            behavior: .custom { request in
                clock.advance(by: .seconds(3))
                return Response(statusCode: 200, request: request)
            })
        let provider = Provider<TestTarget>(transport: late, configuration: Self.configuration(clock))
        let error = await failure(of: TestTarget(timeout: .seconds(2)), on: provider)
        #expect(error?.code == .timedOut, "\(String(describing: error))")
    }
}
