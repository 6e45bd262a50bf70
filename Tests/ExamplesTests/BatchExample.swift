// Mirrors the README section "Batches (NetBatch)"; keep them in sync.
import NetToolbox
import Foundation
import NetBatch
import NetCore
import Testing

@Suite("README: Batches (NetBatch)")
struct BatchExample {
    /// The README's placeholder API: `API.user(id)`.
    enum API: TargetType {
        case user(Int)
        var baseURL: URL { URL(string: "https://api.example.com")! }
        var path: String { if case .user(let id) = self { "/users/\(id)" } else { "/" } }
        var method: HTTPMethod { .get }
        var content: RequestContent { .plain }
    }

    struct User: Decodable, Equatable {
        var id: Int
        var name: String
    }

    /// Answers `/users/N` with user N; later ids answer sooner, so completion order is the
    /// reverse of input order. Ids in `missing` answer 404. Tracks the highest concurrency.
    static func server(missing: Set<Int> = [], running: Locked<(now: Int, peak: Int)>, sends: Locked<[Int: Int]>) -> StubTransport {
        StubTransport(
            behavior: .custom { request in
                let id = Int(request.url.lastPathComponent) ?? 0
                running.update {
                    $0.now += 1; $0.peak = max($0.peak, $0.now)
                }
                sends.update { $0[id, default: 0] += 1 }
                defer { running.update { $0.now -= 1 } }
                try await Task.sleep(for: .milliseconds(max(1, 25 - id)))
                guard !missing.contains(id) else { return Response(statusCode: 404, request: request) }
                let body = #"{"id": \#(id), "name": "user \#(id)"}"#
                return Response(statusCode: 200, headers: ["Content-Type": "application/json"], data: Data(body.utf8), request: request)
            })
    }

    @Test func batchKeepsInputOrderAndTheConcurrencyLimit() async throws {
        let ids = Array(1...20)
        let running = Locked((now: 0, peak: 0))
        let sends = Locked<[Int: Int]>([:])
        let provider = Provider<API>(transport: Self.server(running: running, sends: sends))
        let events = Locked<[BatchEvent]>([])

        let batch = BatchManager(
            provider: provider,
            configuration: BatchConfiguration(
                maxConcurrent: 8, maxRetries: 3,
                retryTiming: .backoff(initial: .milliseconds(100), multiplier: 2, max: .seconds(5))))
        let result = await batch.run(ids.map(API.user)) { event in
            print(event); events.update { $0.append(event) }
        }  // progress events (optional)
        let users = try result.decode(as: User.self)  // in input order
        #expect(result.failures.isEmpty)  // [(index, NetworkError)]

        #expect(users.map(\.id) == ids)
        #expect(users.first == User(id: 1, name: "user 1"))
        #expect(running.current.peak <= 8)
        #expect(running.current.peak > 1)
        let finished = events.current.filter { if case .itemFinished = $0 { true } else { false } }
        #expect(finished.count == ids.count)
        guard case .finished(let summary)? = events.current.last else {
            Issue.record("the last event is not .finished")
            return
        }
        #expect(summary.succeeded == ids.count)
    }

    @Test func failuresListTheIndexAndErrorAfterTheRetries() async throws {
        let ids = [1, 2, 404, 4]
        let running = Locked((now: 0, peak: 0))
        let sends = Locked<[Int: Int]>([:])
        let provider = Provider<API>(transport: Self.server(missing: [404], running: running, sends: sends))

        let batch = BatchManager(
            provider: provider,
            configuration: BatchConfiguration(
                maxConcurrent: 8, maxRetries: 3,
                retryTiming: .backoff(initial: .milliseconds(100), multiplier: 2, max: .seconds(5))))
        let result = await batch.run(ids.map(API.user))

        #expect(result.failures.map(\.index) == [2])
        #expect(result.failures.first?.error.statusCode == 404)
        #expect(sends.current[404] == 4)  // the first send and maxRetries: 3
        #expect(result[2].attempts == 4)
        #expect(throws: NetworkError.self) { try result.decode(as: User.self) }
        #expect(result.decodeEach(as: User.self).compactMap { try? $0.get().id } == [1, 2, 4])
    }
}

extension BatchExample {
    /// The README block, compiled (the tests above run it on a stub server).
    static func readmeBatch(provider: Provider<API>, ids: [Int]) async throws -> ([User], [(index: Int, error: NetworkError)]) {
        let batch = BatchManager(
            provider: provider,
            configuration: BatchConfiguration(
                maxConcurrent: 8, maxRetries: 3,
                retryTiming: .backoff(initial: .milliseconds(100), multiplier: 2, max: .seconds(5))))
        // progress events (optional)
        let result = await batch.run(ids.map(API.user)) { event in print(event) }
        let users = try result.decode(as: User.self)  // in input order
        let failures = result.failures  // [(index, NetworkError)]
        return (users, failures)
    }
}
