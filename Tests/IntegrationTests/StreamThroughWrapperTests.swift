import Foundation
import NetCore
import Testing
import NetTestSupport

/// Streams through NetKit's wrapper transports (`DeduplicatingTransport`, `StubTransport`'s
/// network path) stream: events arrive while the body is still coming, on both transports.
@Suite(.liveServers, .serialized)
struct StreamThroughWrapperTests {
    /// A wrapper around a built-in transport.
    enum Wrapper: String, CaseIterable, CustomStringConvertible, Sendable {
        case deduplicating
        case stubNetwork
        case stubOverDeduplicating

        func wrap(_ base: any Transport) -> any Transport {
            switch self {
            case .deduplicating: DeduplicatingTransport(base)
            case .stubNetwork: StubTransport(network: base) { _ in nil }
            case .stubOverDeduplicating: StubTransport(network: DeduplicatingTransport(base)) { _ in nil }
            }
        }

        var description: String { rawValue }
    }

    /// 100 000 events a millisecond apart: sent whole, the body would take 100 s, past the
    /// target's timeout; streamed, the first event arrives at once.
    static let longFeed = HostileTarget(
        path: "/sse/drip", content: .query(["count": 100_000, "interval_ms": 1]), timeout: .seconds(10), validation: .successCodes)

    @Test(
        "Server-Sent Events through a wrapper transport arrive before the body ends",
        arguments: TransportKind.allCases, Wrapper.allCases)
    func eventsArriveWhileTheBodyFlows(kind: TransportKind, wrapper: Wrapper) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: wrapper.wrap(kind.make()))
        var received: [String] = []
        for try await event in provider.events(Self.longFeed) {
            received.append(event.data)
            if received.count == 3 { break }
        }
        #expect(received == ["0", "1", "2"])
    }

    @Test("A stream through a wrapper transport gets its head before the body ends", arguments: TransportKind.allCases, Wrapper.allCases)
    func headArrivesBeforeTheBodyEnds(kind: TransportKind, wrapper: Wrapper) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let stream = Provider<HostileTarget>(transport: wrapper.wrap(kind.make())).stream(Self.longFeed)
        let head = try await stream.head
        #expect(head.statusCode == 200)
        var iterator = stream.makeAsyncIterator()
        let first = try await iterator.next()
        #expect(first?.isEmpty == false)
        // Dropping the stream cancels the rest of the transfer.
    }
}
