import Foundation
import Testing

/// The live servers `scripts/test` starts, read from the environment.
///
/// Under `scripts/test` (`NETKIT_REQUIRE_SERVERS=1`) a missing server fails the test; in a bare
/// `swift test` the integration tests are skipped and say so.
enum TestServers {
    static let environment = ProcessInfo.processInfo.environment

    /// Whether servers must be present (set by `scripts/test`).
    static var required: Bool { environment["NETKIT_REQUIRE_SERVERS"] == "1" }

    static var httpbin: URL? { url("NETKIT_HTTPBIN_URL") }
    static var fault: URL? { url("NETKIT_FAULT_URL") }
    static var tls: URL? { url("NETKIT_TLS_URL") }

    /// Whether the integration tests can run (or must, and will then fail on a missing server).
    static var available: Bool { required || httpbin != nil }

    static func url(_ name: String) -> URL? {
        environment[name].flatMap(URL.init(string:))
    }

    /// The URL in `name`, or a recorded failure naming the variable.
    static func require(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        guard let url = url(name) else {
            Issue.record("\(name) is not set: run the tests with scripts/test, which starts the servers", sourceLocation: sourceLocation)
            throw MissingServer(name: name)
        }
        return url
    }

    struct MissingServer: Error, CustomStringConvertible {
        let name: String
        var description: String { "\(name) is not set" }
    }
}

/// A trait that skips a suite when no servers are configured and none are required; each skip
/// is counted, and a bare `swift test` ends with one line saying how many suites were skipped
/// (see `SkippedLiveSuites`).
extension Trait where Self == ConditionTrait {
    static var liveServers: Self {
        .enabled("no live servers: run scripts/test to start httpbin and friends") {
            let available = TestServers.available
            if !available { SkippedLiveSuites.record() }
            return available
        }
    }
}
