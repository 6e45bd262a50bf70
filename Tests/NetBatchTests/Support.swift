import NetToolbox
import Foundation
import NetBatch
import NetCore

/// A numbered item whose stub answer is `{"value": n}`.
enum Item: TargetType, Equatable {
    case number(Int)

    var n: Int {
        switch self {
        case .number(let n): n
        }
    }
    var baseURL: URL { URL(string: "https://batch.test")! }
    var path: String { "items/\(n)" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .plain }
    var sampleResponse: SampleResponse { .json(#"{"value": \#(n)}"#) }
}

/// A second target enum, to mix targets through `AnyTarget`.
enum Other: TargetType {
    case ping
    var baseURL: URL { URL(string: "https://other.test")! }
    var path: String { "ping" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .plain }
    var sampleResponse: SampleResponse { .json(#"{"value": -1}"#) }
}

struct Value: Decodable, Equatable { var value: Int }

/// The item number a request was built from (through `AnyTarget` too).
func itemNumber(_ request: Request) -> Int {
    if let item = request.target as? Item { return item.n }
    if let erased = request.target as? AnyTarget, let item = erased.base as? Item { return item.n }
    return -1
}

/// Sends through `StubTransport`-like answers while recording what happened: how many requests
/// are in flight (and the maximum), every send in order, and attempts per item. Items listed in
/// `failures` answer 503 on their first `failures[n]` sends; items in `hanging` wait until cancelled.
final class ScriptedTransport: Transport {
    struct State {
        var inFlight = 0
        var maxInFlight = 0
        var sends: [Int] = []
        var attempts: [Int: Int] = [:]
    }

    let capabilities: TransportCapabilities = []
    let failures: [Int: Int]
    let hanging: Set<Int>
    /// Item n answers only once item `waitsFor[n]` has reached the transport, so tests can pin an order.
    let waitsFor: [Int: Int]
    let maxDelayMicroseconds: Int?
    let state = Locked(State())
    /// Yields an item number each time a send starts (for awaiting "the batch has started n items").
    let started: AsyncStream<Int>
    private let startedContinuation: AsyncStream<Int>.Continuation

    init(failures: [Int: Int] = [:], hanging: Set<Int> = [], waitsFor: [Int: Int] = [:], maxDelayMicroseconds: Int? = nil) {
        self.failures = failures
        self.hanging = hanging
        self.waitsFor = waitsFor
        self.maxDelayMicroseconds = maxDelayMicroseconds
        (started, startedContinuation) = AsyncStream<Int>.makeStream()
    }

    var maxInFlight: Int { state.withLock { $0.maxInFlight } }
    var sends: [Int] { state.withLock { $0.sends } }
    func attempts(of n: Int) -> Int { state.withLock { $0.attempts[n, default: 0] } }

    func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        let n = itemNumber(request)
        let attempt = state.withLock { state in
            state.inFlight += 1
            state.maxInFlight = max(state.maxInFlight, state.inFlight)
            state.sends.append(n)
            state.attempts[n, default: 0] += 1
            return state.attempts[n]!
        }
        defer { state.withLock { $0.inFlight -= 1 } }
        startedContinuation.yield(n)
        if let other = waitsFor[n] {
            while !state.withLock({ $0.sends.contains(other) }) {
                if Task.isCancelled { throw NetworkError.cancelled }
                await Task.yield()
            }
        }
        if let maxDelayMicroseconds {
            let micros = Int.random(in: 0...maxDelayMicroseconds)
            do { try await Task.sleep(for: .microseconds(micros)) } catch { throw NetworkError.cancelled }
        }
        if hanging.contains(n) {
            do { try await Task.sleep(for: .seconds(3600)) } catch { throw NetworkError.cancelled }
        }
        if attempt <= failures[n, default: 0] {
            return Response(statusCode: 503, data: Data("busy".utf8), request: request)
        }
        let sample = request.target.sampleResponse
        return Response(statusCode: sample.statusCode, headers: sample.headers, data: sample.data, request: request, source: .stub)
    }
}

/// Records the delays a batch asks to sleep, without sleeping.
final class SleepRecorder: Sendable {
    private let delays = Locked<[Duration]>([])
    var recorded: [Duration] { delays.withLock { $0 } }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [self] delay in
            delays.withLock { $0.append(delay) }
            try Task.checkCancellation()
        }
    }
}

/// A short text form of an event, for comparing sequences.
func describe(_ event: BatchEvent) -> String {
    switch event {
    case .roundStarted(let round, let count): "round \(round) (\(count))"
    case .itemStarted(let index, let attempt): "start \(index)#\(attempt)"
    case .itemFinished(let index, let attempt, let result):
        "finish \(index)#\(attempt) \((try? result.get()) == nil ? "failure" : "success")"
    case .itemWillRetry(let index, let next, let delay): "retry \(index)#\(next) after \(delay)"
    case .finished(let summary): "finished \(summary.succeeded)/\(summary.failed)/\(summary.cancelled) in \(summary.rounds)"
    }
}

/// Collects events from any thread.
final class EventLog: Sendable {
    private let events = Locked<[BatchEvent]>([])
    var all: [BatchEvent] { events.withLock { $0 } }
    var handler: @Sendable (BatchEvent) -> Void { { [self] event in events.withLock { $0.append(event) } } }
}

/// A plugin that counts the requests it sees in `willSend`.
final class CountingPlugin: Plugin {
    private let count = Locked(0)
    var seen: Int { count.withLock { $0 } }
    func willSend(_ request: Request) async -> SendAction {
        count.withLock { $0 += 1 }
        return .proceed
    }
}

func items(_ count: Int) -> [Item] { (0..<count).map(Item.number) }
