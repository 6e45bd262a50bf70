import Foundation
import Testing

/// The live loopback servers `scripts/test` starts (see scripts/servers.sh), read from the
/// environment it exports.
///
/// Under `scripts/test` (`NETKIT_REQUIRE_SERVERS=1`) a missing server is a recorded failure,
/// never a skip; in a bare `swift test` the live tests skip and say so.
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
    /// ``MissingServer``: for suites that run only when servers are available.
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

    /// The URL in `name`; when it is not set, `nil` after recording a failure (under
    /// `scripts/test`) or printing a skip note (in a bare `swift test`).
    public static func urlOrSkip(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) -> URL? {
        if let url = url(name) { return url }
        skip(name, sourceLocation: sourceLocation)
        return nil
    }

    /// The values of `names`, or `nil` (after recording a failure under `scripts/test`, or
    /// printing a skip note) when any of them is not set.
    public static func valuesOrSkip(_ names: String..., sourceLocation: SourceLocation = #_sourceLocation) -> [String]? {
        let values = names.compactMap(value)
        if values.count == names.count { return values }
        skip(names.filter { value($0) == nil }.joined(separator: ", "), sourceLocation: sourceLocation)
        return nil
    }

    private static func skip(_ missing: String, sourceLocation: SourceLocation) {
        if required {
            Issue.record("\(missing) not set: scripts/test should have started the servers", sourceLocation: sourceLocation)
        } else {
            print("skipping: \(missing) not set (run scripts/test)")
        }
    }

    /// Thrown by ``require(_:sourceLocation:)`` for a variable that is not set.
    public struct MissingServer: Error, CustomStringConvertible {
        /// The environment variable.
        public let name: String
        /// "`name` is not set".
        public var description: String { "\(name) is not set" }
    }
}
