// Mirrors the README section "Streams"; compiled, not run (it needs a live event feed; the
// streaming behaviour is tested in NetCoreTests and IntegrationTests).
import Foundation
import NetCore

enum StreamsExample {
    /// The README's placeholder feed of Server-Sent Events.
    enum Feed: TargetType {
        case events
        var baseURL: URL { URL(string: "https://feed.example.com")! }
        var path: String { "/events" }
        var method: HTTPMethod { .get }
        var content: RequestContent { .plain }
    }

    static func readmeStream() async throws {
        let feed = Provider<Feed>().stream(.events)
        for try await event in feed.events {  // ServerSentEvent: event, data, id, retry
            print(event.event, event.data)
        }
    }
}
