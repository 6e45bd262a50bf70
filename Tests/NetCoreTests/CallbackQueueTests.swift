import Dispatch
import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("send(_:callbackQueue:completion:)")
struct CallbackQueueTests {
    /// Marks a queue so that code running on it can tell.
    private static let queueName = DispatchSpecificKey<String>()

    private static func queue(_ name: String) -> DispatchQueue {
        let queue = DispatchQueue(label: "netkit.tests.\(name)")
        queue.setSpecific(key: queueName, value: name)
        return queue
    }

    /// Sends `target` and returns the name of the queue the completion ran on (`nil`: none of ours).
    private static func completionQueue(
        _ provider: Provider<TestTarget>, _ target: TestTarget, callbackQueue: DispatchQueue? = nil
    ) async -> (queue: String?, result: Result<Response, NetworkError>) {
        await withCheckedContinuation { continuation in
            provider.send(target, callbackQueue: callbackQueue) { result in
                continuation.resume(returning: (DispatchQueue.getSpecific(key: queueName), result))
            }
        }
    }

    @Test func theConfigurationsQueueRunsTheCompletion() async throws {
        let provider = Provider<TestTarget>(
            transport: StubTransport(), configuration: ProviderConfiguration(callbackQueue: Self.queue("configured")))
        let (queue, result) = await Self.completionQueue(provider, TestTarget())
        #expect(queue == "configured")
        #expect(try result.get().statusCode == 200)
    }

    @Test func aQueuePassedToSendWinsOverTheConfigurations() async {
        let provider = Provider<TestTarget>(
            transport: StubTransport(), configuration: ProviderConfiguration(callbackQueue: Self.queue("configured")))
        let (queue, _) = await Self.completionQueue(provider, TestTarget(), callbackQueue: Self.queue("per-call"))
        #expect(queue == "per-call")
    }

    @Test func withoutAQueueTheCompletionRunsOnTheCallsTask() async {
        let provider = Provider<TestTarget>(transport: StubTransport())
        #expect(provider.configuration.callbackQueue == nil)
        let (queue, result) = await Self.completionQueue(provider, TestTarget())
        #expect(queue == nil)
        #expect((try? result.get())?.statusCode == 200)
    }

    @Test func aCancelledCallIsReportedOnTheQueueToo() async {
        let transport = StubTransport(behavior: .delayed(.seconds(5)))
        let provider = Provider<TestTarget>(transport: transport, configuration: ProviderConfiguration(callbackQueue: Self.queue("configured")))
        let (queue, result) = await withCheckedContinuation { continuation in
            let handle = provider.send(TestTarget()) { result in
                continuation.resume(returning: (DispatchQueue.getSpecific(key: Self.queueName), result))
            }
            handle.cancel()
        }
        #expect(queue == "configured")
        guard case .failure(.cancelled) = result else {
            Issue.record("expected .cancelled, got \(result)")
            return
        }
    }
}
