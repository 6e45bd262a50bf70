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

    @Test("A retry whose wait would pass the deadline is not started; the last real error stands")
    func longRetryAfterIsNotWaited() async {
        let log = TransportLog()
        let recorder = Recorder()
        let provider = Provider<TestTarget>(
            transport: StubTransport.counting(log),
            plugins: [Self.retrying(after: .seconds(3600), recorder)])
        let clock = ContinuousClock()
        let start = clock.now
        let error = await failure(of: TestTarget(timeout: .seconds(2), sampleResponse: SampleResponse(statusCode: 503)), on: provider)
        #expect(clock.now - start < .seconds(1), "the hour-long wait was never started")
        #expect(error?.statusCode == 503, "the caller gets the last real error: \(String(describing: error))")
        #expect(log.count == 1)
    }

    @Test("Each attempt gets what is left of the deadline, capped by attemptTimeout")
    func attemptsShareTheDeadline() async {
        let log = TransportLog()
        let recorder = Recorder()
        let configuration = ProviderConfiguration(maxAttempts: 3, attemptTimeout: .seconds(5))
        let provider = Provider<TestTarget>(
            transport: StubTransport.counting(log), plugins: [Self.retrying(after: .milliseconds(50), recorder)],
            configuration: configuration)
        _ = await failure(of: TestTarget(timeout: .seconds(20), sampleResponse: SampleResponse(statusCode: 500)), on: provider)
        let timeouts = log.all.map(\.timeout)
        #expect(timeouts.count == 3)
        #expect(timeouts.allSatisfy { $0 <= .seconds(5) }, "attemptTimeout caps each attempt: \(timeouts)")

        let uncapped = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [Self.retrying(after: .milliseconds(100), recorder)])
        let before = log.count
        _ = await failure(of: TestTarget(timeout: .seconds(20), sampleResponse: SampleResponse(statusCode: 500)), on: uncapped)
        let later = log.all[before...].map(\.timeout)
        #expect(later.count == 3)
        #expect(later[0] > later[1] && later[1] > later[2], "each attempt sees less of the deadline: \(later)")
        #expect(later[0] <= .seconds(20))
    }
}
