import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

/// A plugin or transport written with nothing but Swift's own cancellation (no NetKit API) is
/// cancelled by `cancelAll()` and by cancelling the caller's task, like the built-in waits.
@Suite("Third-party plugins and transports are cancelled by cancelAll() and by task cancellation")
struct ThirdPartyCancellationTests {
    /// How a third-party wait is written.
    enum Wait: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// `withTaskCancellationHandler` around a continuation only its handler resumes.
        case cancellationHandler
        /// `Task.sleep` for a minute.
        case sleep
        /// Consuming an `AsyncStream` that never yields.
        case asyncStream

        var testDescription: String { rawValue }

        /// Waits until the current task is cancelled (the wait's own way), then throws
        /// `CancellationError` when the wait reports cancellation by throwing.
        func run(entered: Signal) async throws {
            entered.fire()
            switch self {
            case .cancellationHandler:
                let gate = Gate()
                await withTaskCancellationHandler {
                    await gate.wait()
                } onCancel: {
                    gate.open()
                }
            case .sleep:
                try await Task.sleep(for: .seconds(60))
            case .asyncStream:
                let (stream, continuation) = AsyncStream<Int>.makeStream()
                for await _ in stream {}
                continuation.finish()
            }
            try Task.checkCancellation()
        }
    }

    /// Who cancels the call.
    enum Canceller: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case cancelAll
        case callerTask

        var testDescription: String { rawValue }
    }

    /// A Moya-style plugin that waits in `prepare`, using only Swift concurrency.
    struct WaitingPlugin: Plugin {
        let wait: Wait
        let entered: Signal

        func prepare(_ request: inout Request) async throws -> PrepareAction {
            if request.target.path == "/wait" { try await wait.run(entered: entered) }
            return .proceed
        }
    }

    /// A third-party transport that waits for its answer using only Swift concurrency.
    struct WaitingTransport: Transport {
        let wait: Wait
        let entered: Signal
        var capabilities: TransportCapabilities { [] }

        func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
            if request.target.path == "/wait" { try await wait.run(entered: entered) }
            return Response(statusCode: 200, data: Data("ok".utf8), request: request, source: .stub)
        }
    }

    @Test("a plugin waiting in prepare ends with .cancelled", arguments: Wait.allCases, Canceller.allCases)
    func pluginWaitEnds(wait: Wait, canceller: Canceller) async throws {
        let entered = Signal()
        let provider = Provider<TestTarget>(
            transport: StubTransport(), plugins: [WaitingPlugin(wait: wait, entered: entered)])
        try await expectCancelled(provider, entered: entered, by: canceller)
    }

    @Test("a transport waiting for its answer ends with .cancelled", arguments: Wait.allCases, Canceller.allCases)
    func transportWaitEnds(wait: Wait, canceller: Canceller) async throws {
        let entered = Signal()
        let provider = Provider<TestTarget>(transport: WaitingTransport(wait: wait, entered: entered))
        try await expectCancelled(provider, entered: entered, by: canceller)
    }

    @Test("a call started after cancelAll() is not cancelled, and the same task's next call succeeds")
    func laterCallsRun() async throws {
        let entered = Signal()
        let provider = Provider<TestTarget>(transport: WaitingTransport(wait: .sleep, entered: entered))
        provider.cancelAll()
        let response = try await provider.request(TestTarget(path: "/now"))
        #expect(response.statusCode == 200)
        #expect(provider.inFlightCount == 0)
    }

    /// Starts a waiting call, cancels it once it waits, and checks how it ended; after a
    /// `cancelAll()`, the same task then makes another call, which succeeds.
    private func expectCancelled(_ provider: Provider<TestTarget>, entered: Signal, by canceller: Canceller) async throws {
        let caller = Task { () -> (NetworkError?, Bool, Int?) in
            var failure: NetworkError?
            do { _ = try await provider.request(TestTarget(path: "/wait")) } catch { failure = error as? NetworkError }
            let cancelled = Task.isCancelled
            let next = try? await provider.request(TestTarget(path: "/now"))
            return (failure, cancelled, next?.statusCode)
        }
        await entered.wait()
        switch canceller {
        case .cancelAll: provider.cancelAll()
        case .callerTask: caller.cancel()
        }
        let (error, taskCancelled, next) = await caller.value
        #expect(error?.caseName == "cancelled", "got \(String(describing: error))")
        switch canceller {
        case .cancelAll:
            #expect(!taskCancelled, "cancelAll() cancels the call's task, not the caller's")
            #expect(next == 200, "the caller's next request runs normally")
        case .callerTask:
            #expect(taskCancelled)
            #expect(next == nil, "a cancelled caller's next request is cancelled too")
        }
        #expect(provider.inFlightCount == 0)
    }
}

/// Opens once; `wait()` returns once it is open (before or after the call).
private final class Gate: Sendable {
    private let opened = Locked<(isOpen: Bool, waiter: CheckedContinuation<Void, Never>?)>((false, nil))

    func open() {
        let waiter = opened.withLock { state -> CheckedContinuation<Void, Never>? in
            state.isOpen = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume()
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = opened.withLock { state -> Bool in
                if state.isOpen { return true }
                state.waiter = continuation
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}
