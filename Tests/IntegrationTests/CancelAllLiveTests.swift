import Foundation
import NetCore
import Testing
import NetTestSupport

/// `cancelAll()` against a real server: it ends transfers that would otherwise wait for minutes,
/// before and after the response head, without cancelling the tasks that await them.
@Suite(.liveServers)
struct CancelAllLiveTests {
    @Test("cancelAll() ends hanging requests and a streaming body at once", arguments: TransportKind.allCases)
    func cancelAllEndsLiveTransfers(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<FaultTarget>(transport: kind.make())
        let hang = FaultTarget(path: "/hang", timeout: .seconds(60))
        let requests = (0..<3).map { _ in
            Task { () -> (NetworkError?, Bool) in
                do {
                    _ = try await provider.request(hang)
                    return (nil, Task.isCancelled)
                } catch {
                    return (error as? NetworkError, Task.isCancelled)
                }
            }
        }
        let drip = FaultTarget(path: "/drip", query: ["count": 600, "interval_ms": 100], timeout: .seconds(60))
        let stream = provider.stream(drip)
        let reader = Task { () -> (NetworkError?, Int) in
            var received = 0
            do {
                for try await chunk in stream { received += chunk.count }
                return (nil, received)
            } catch {
                return (error as? NetworkError, received)
            }
        }
        // The head and a few body bytes have arrived, and the hanging requests are on the wire.
        _ = try await stream.head
        try await Task.sleep(for: .milliseconds(500))
        let clock = ContinuousClock()
        let start = clock.now
        provider.cancelAll()
        for request in requests {
            let (error, taskCancelled) = await request.value
            #expect(error?.isCancellation == true, "got \(String(describing: error))")
            #expect(!taskCancelled, "cancelAll() ends the call, not the caller's task")
        }
        let (streamError, received) = await reader.value
        #expect(streamError?.isCancellation == true, "got \(String(describing: streamError))")
        #expect(received < 600)
        #expect(clock.now - start < .seconds(3))
        for _ in 0..<300 where provider.inFlightCount > 0 { try await Task.sleep(for: .milliseconds(10)) }
        #expect(provider.inFlightCount == 0)
    }
}
