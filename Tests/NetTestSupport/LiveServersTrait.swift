import Testing

/// A trait for every suite or test that needs the live servers of `scripts/test`, in every test
/// target: it skips them when no servers are configured and none are required, so a bare
/// `swift test` reports them as skipped (never as passed) and ends with one line saying how many
/// were skipped (see `SkippedLiveSuites`). Under `scripts/test` (`NETKIT_REQUIRE_SERVERS=1`)
/// nothing is skipped: a missing server fails the test that asks for it
/// (``TestServers/require(_:sourceLocation:)``).
///
/// ```swift
/// @Test(.liveServers) func getsFromHTTPBin() async throws {
///     let httpbin = try TestServers.require("NETKIT_HTTPBIN_URL")
/// }
/// ```
extension Trait where Self == ConditionTrait {
    /// Skips the suite or test when there are no live servers (see the extension's comment).
    public static var liveServers: Self {
        .enabled("no live servers: run scripts/test to start httpbin and friends") {
            let available = TestServers.available
            if !available { SkippedLiveSuites.record() }
            return available
        }
    }
}
