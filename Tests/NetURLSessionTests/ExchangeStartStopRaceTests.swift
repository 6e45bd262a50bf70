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

@Suite("URLSession exchange: start racing stop", .serialized)
struct ExchangeStartStopRaceTests {
    @Test("A stop racing start answers the waiting caller once with the stop's error and never leaves the exchange watched")
    func startStopRace() async throws {
        let control = DispatchQueue(label: "netkit.test.exchange-control")
        let request = Request(url: URL(string: "https://api.example.com/x")!, timeout: .seconds(60), target: ProbeTarget())
        var answers: [String: Int] = [:], watchedWhileWaiting = 0, watchedAfter = 0
        for _ in 0..<5_000 {
            let exchange = Exchange(request: request, progress: nil, control: control)
            let task = InertTask()
            do {
                _ = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                    exchange.wait(continuation)
                    if DeadlineWatcher.shared.isWatched(exchange) { watchedWhileWaiting += 1 }
                    DispatchQueue.concurrentPerform(iterations: 2) { index in
                        if index == 0 { exchange.start(task) } else { exchange.stop(because: .cancelled) }
                    }
                }
                answers["a response", default: 0] += 1
            } catch {
                answers[(error as? NetworkError).map { "\($0.code)" } ?? "\(error)", default: 0] += 1
            }
            // This exchange, not the process-wide count: other suites' exchanges run alongside.
            if DeadlineWatcher.shared.isWatched(exchange) { watchedAfter += 1 }
        }
        #expect(answers == ["cancelled": 5_000])
        #expect(watchedWhileWaiting == 5_000, "a waiting caller's exchange is watched")
        #expect(watchedAfter == 0, "an answered caller's exchange is no longer watched")
    }

    @Test("A caller that starts waiting after a stop is failed at once and the exchange is not left watched")
    func waitAfterStop() async {
        let control = DispatchQueue(label: "netkit.test.exchange-control")
        let request = Request(url: URL(string: "https://api.example.com/x")!, timeout: .seconds(60), target: ProbeTarget())
        let exchange = Exchange(request: request, progress: nil, control: control)
        exchange.stop(because: .timedOut)
        await #expect {
            _ = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Response, any Error>) in
                exchange.wait(continuation)
            }
        } throws: { ($0 as? NetworkError)?.code == .timedOut }
        exchange.start(InertTask())
        #expect(!DeadlineWatcher.shared.isWatched(exchange))
    }
}
