import NetTestSupport
import Testing

/// A trait that skips a suite when no servers are configured and none are required; each skip
/// is counted, and a bare `swift test` ends with one line saying how many suites were skipped
/// (see `SkippedLiveSuites`). Under `scripts/test` nothing is skipped: a missing server fails
/// the test that asks for it (``TestServers/require(_:sourceLocation:)``).
extension Trait where Self == ConditionTrait {
    static var liveServers: Self {
        .enabled("no live servers: run scripts/test to start httpbin and friends") {
            let available = TestServers.available
            if !available { SkippedLiveSuites.record() }
            return available
        }
    }
}
