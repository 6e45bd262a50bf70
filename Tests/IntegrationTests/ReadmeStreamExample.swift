// Mirrors the README section "Streams"; keep them in sync. Live: it proves the README's claim
// that events arrive as the server sends them, over the default transport.
import Foundation
import NetCore
import Testing
import NetTestSupport

/// The README's feed API, pointed at the fault server's Server-Sent Events drip.
enum Feed: TargetType {
    case events
    var baseURL: URL { TestServers.fault ?? URL(string: "http://127.0.0.1:9")! }
    var path: String { "/sse/drip" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .query(["count": 3, "interval_ms": 50]) }
}

@Suite("README: Streams", .liveServers)
struct ReadmeStreamExample {
    @Test func eventsArriveOneByOne() async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        var received: [String] = []
        let feed = Provider<Feed>().stream(.events)
        for try await event in feed.events {  // ServerSentEvent: event, data, id, retry
            print(event.event, event.data)
            received.append(event.data)
        }
        #expect(received == ["0", "1", "2"])
        #expect(try await feed.head.statusCode == 200)
    }
}
