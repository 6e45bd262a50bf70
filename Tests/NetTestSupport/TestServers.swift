import Foundation
import Testing

/// The live loopback servers `scripts/test` starts (see scripts/servers.sh), read from the
/// environment it exports.
///
/// Every suite or test that needs them carries the `.liveServers` trait and asks for its server
/// with ``require(_:sourceLocation:)``: in a bare `swift test` such tests are reported as skipped;
/// under `scripts/test` (`NETKIT_REQUIRE_SERVERS=1`) a missing server is a recorded failure,
/// never a skip.
public enum TestServers {
    /// The test process's environment.
    public static let environment = ProcessInfo.processInfo.environment

    /// Whether servers must be present (set by `scripts/test`).
    public static var required: Bool { environment["NETKIT_REQUIRE_SERVERS"] == "1" }

    /// httpbin (`NETKIT_HTTPBIN_URL`).
    public static var httpbin: URL? { url("NETKIT_HTTPBIN_URL") }
    /// The fault server, scripts/fault_server.py (`NETKIT_FAULT_URL`).
    public static var fault: URL? { url("NETKIT_FAULT_URL") }
    /// The TLS server (`NETKIT_TLS_URL`).
    public static var tls: URL? { url("NETKIT_TLS_URL") }

    /// Whether the live tests can run (or must, and will then fail on a missing server).
    public static var available: Bool { required || httpbin != nil }

    /// The URL in the environment variable `name`, or `nil` when it is not set.
    public static func url(_ name: String) -> URL? {
        environment[name].flatMap(URL.init(string:))
    }

    /// The environment variable `name` as text (a certificate path, a pin), or `nil`.
    public static func value(_ name: String) -> String? {
        environment[name]
    }

    /// The URL in `name`, or a recorded failure naming the variable and a thrown
    /// ``MissingServer``: for suites and tests marked `.liveServers`.
    public static func require(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> URL {
        guard let url = URL(string: try requireValue(name, sourceLocation: sourceLocation)) else {
            Issue.record("\(name) is not a URL", sourceLocation: sourceLocation)
            throw MissingServer(name: name)
        }
        return url
    }

    /// The text in `name` (a certificate path, a pin), or a recorded failure naming the variable
    /// and a thrown ``MissingServer``.
    public static func requireValue(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        guard let value = value(name) else {
            Issue.record("\(name) is not set: run the tests with scripts/test, which starts the servers", sourceLocation: sourceLocation)
            throw MissingServer(name: name)
        }
        return value
    }

    /// The texts in `names`, in order, or a recorded failure naming the first one missing and a
    /// thrown ``MissingServer``.
    public static func requireValues(_ names: String..., sourceLocation: SourceLocation = #_sourceLocation) throws -> [String] {
        try names.map { try requireValue($0, sourceLocation: sourceLocation) }
    }

    /// Thrown by ``require(_:sourceLocation:)`` for a variable that is not set.
    public struct MissingServer: Error, CustomStringConvertible {
        /// The environment variable.
        public let name: String
        /// "`name` is not set".
        public var description: String { "\(name) is not set" }
    }
}
