import Foundation
import NetTestSupport
import NetCore
import Testing

/// No request hangs: every fault ends within its timeout plus one second, with the expected error.
/// Serialized: the time bounds measure the library, not a machine busy with the other cases.
@Suite(.liveServers, .serialized)
struct FaultToleranceTests {
    struct Fault: Sendable, CustomStringConvertible {
        var target: FaultTarget
        /// The acceptable outcomes; several where the wire gives a transport a genuine choice
        /// (a reset after headers can surface as a lost connection or a short body).
        var expected: Set<String>
        var description: String { target.path }

        init(_ path: String, _ expected: ErrorKind..., query: Parameters = [:], timeout: Duration = .seconds(2)) {
            target = FaultTarget(path: path, query: query, timeout: timeout)
            self.expected = Set(expected.map(\.rawValue))
        }
    }

    static let faults: [Fault] = [
        Fault("/reset-before-headers", .connectionLost),
        Fault("/reset-after-headers", .connectionLost, .truncatedResponse),
        Fault("/truncated", .truncatedResponse, .connectionLost),
        Fault("/drip", .timedOut, query: ["count": 50], timeout: .milliseconds(800)),
        Fault("/hang", .timedOut, timeout: .seconds(1)),
        Fault("/redirect-loop", .redirectRefused, timeout: .seconds(5)),
        Fault("/corrupt-gzip", .invalidResponse),
        Fault("/cut-chunked", .truncatedResponse, .connectionLost, .invalidResponse),
        Fault("/status/503", .unacceptableStatus),
    ]

    @Test("Every fault ends in time with the expected error", arguments: TransportKind.allCases, faults)
    func faultEndsInTime(kind: TransportKind, fault: Fault) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<FaultTarget>(transport: kind.make())
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let response = try await provider.request(fault.target)
            Issue.record("\(fault) succeeded with \(response.statusCode)")
        } catch {
            #expect(fault.expected.contains(ErrorKind(error).rawValue), "\(fault) ended with \(error)")
        }
        #expect(clock.now - start < (fault.target.timeout ?? .seconds(60)) + .seconds(1))
    }

    @Test("A closed port fails to connect", arguments: TransportKind.allCases)
    func connectionRefused(kind: TransportKind) async throws {
        let closedPort = closedLoopbackPort()
        let target = FaultTarget(path: "/", base: URL(string: "http://127.0.0.1:\(closedPort)")!)
        await #expect { _ = try await Provider<FaultTarget>(transport: kind.make()).request(target) } throws: { error in
            ErrorKind(error as! NetworkError) == .connectionFailed
        }
    }

    @Test("Malformed JSON and invalid UTF-8 fail to decode with a body excerpt", arguments: TransportKind.allCases)
    func malformedBodies(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<FaultTarget>(transport: kind.make())
        await #expect { _ = try await provider.request(FaultTarget(path: "/malformed-json"), as: [String: Int].self) } throws: { error in
            guard case .decodingFailed(_, _, _, let excerpt, _, _) = error as? NetworkError else { return false }
            return excerpt.contains("{\"a\"")
        }
        let response = try await provider.request(FaultTarget(path: "/invalid-utf8"))
        #expect(response.string() == nil)
        #expect(response.data == Data([0xFF, 0xFE, 0xFA]))
    }
}

/// Large bodies arrive whole.
@Suite(.liveServers)
struct LargeBodyTests {
    @Test("A large JSON body (50 MiB over curl) arrives whole", arguments: TransportKind.allCases)
    func bigJSON(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<FaultTarget>(transport: kind.make())
        // URLSession on Linux is slow to accumulate large bodies; 10 MiB keeps the suite quick.
        let megabytes = kind == .urlSession ? 10 : 50
        let response = try await provider.request(FaultTarget(path: "/big-json", query: ["mb": megabytes], timeout: .seconds(60)))
        #expect(response.data.count >= (megabytes - 1) << 20)
        #expect(response.data.first == UInt8(ascii: "[") && response.data.last == UInt8(ascii: "]"))
    }
}
