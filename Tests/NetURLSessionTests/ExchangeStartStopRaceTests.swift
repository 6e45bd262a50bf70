import Foundation
import Testing

@testable import NetBase
@testable import NetCore
@testable import NetURLSession

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A URLSession task that does nothing, so an exchange's own bookkeeping can be raced without
/// FoundationNetworking (whose registry aborts when a task is cancelled right after resuming).
private final class InertTask: URLSessionDataTask, @unchecked Sendable {
    // @unchecked: the overrides touch no state at all.
    override func resume() {}
    override func cancel() {}
    override func suspend() {}
}

/// A target for requests that are never sent.
private struct ProbeTarget: TargetType {
    var baseURL: URL { URL(string: "https://api.example.com")! }
    var path: String { "/x" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .plain }
}

@Suite("URLSession exchange: start racing stop")
struct ExchangeStartStopRaceTests {
    @Test("A stop racing start never leaves the exchange watched by the deadline timer")
    func startStopRace() async throws {
        let control = DispatchQueue(label: "netkit.test.exchange-control")
        let request = Request(url: URL(string: "https://api.example.com/x")!, timeout: .milliseconds(50), target: ProbeTarget())
        for _ in 0..<50_000 {
            let exchange = Exchange(request: request, progress: nil, control: control)
            let task = InertTask()
            DispatchQueue.concurrentPerform(iterations: 2) { index in
                if index == 0 { exchange.start(task) } else { exchange.stop(because: .cancelled) }
            }
        }
        // Past every deadline: a leaked exchange would stay watched for ever.
        try await Task.sleep(for: .milliseconds(300))
        #expect(DeadlineWatcher.shared.watchedCount == 0)
    }
}
