import NetToolbox
import Foundation
import NetBatch
import NetCore
import Testing

@Suite("Batch priorities")
struct PriorityTests {
    struct Job: TargetType {
        var name: String
        var priority: RequestPriority
        var baseURL: URL { URL(string: "https://jobs.example.com")! }
        var path: String { name }
        var method: HTTPMethod { .get }
        var content: RequestContent { .plain }
        var options: TargetOptions { TargetOptions(priority: priority) }
    }

    @Test("At a limit of 1, higher priorities start first, in input order within a priority")
    func startOrder() async {
        let started = Locked<[String]>([])
        let transport = StubTransport(
            behavior: .custom { request in
                started.withLock { $0.append(request.url.lastPathComponent) }
                return Response(statusCode: 200, request: request)
            })
        let batch = BatchManager(provider: Provider<Job>(transport: transport), configuration: BatchConfiguration(maxConcurrent: 1))
        let jobs = [
            Job(name: "l1", priority: .low), Job(name: "n1", priority: .normal), Job(name: "h1", priority: .high),
            Job(name: "n2", priority: .normal), Job(name: "h2", priority: .high), Job(name: "l2", priority: .low),
        ]
        let result = await batch.run(jobs)
        #expect(started.withLock { $0 } == ["h1", "h2", "n1", "n2", "l1", "l2"])
        #expect(result.items.map { $0.target?.name } == jobs.map(\.name), "results stay in input order")
    }
}
