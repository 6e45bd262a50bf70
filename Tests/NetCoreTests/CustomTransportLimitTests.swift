import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

/// A transport of the user's own: it cannot see the request's limits or download destination,
/// so the provider enforces both for it.
private struct WholeBodyTransport: Transport {
    let body: Data
    /// The timeout of each request it was given.
    let timeouts = Locked<[Duration]>([])
    var capabilities: TransportCapabilities { [] }

    func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        timeouts.withLock { $0.append(request.timeout) }
        return Response(statusCode: 200, headers: ["Content-Type": "application/octet-stream"], data: body, request: request)
    }
}

/// A target with a size limit and any content.
private struct LimitedTarget: TargetType {
    var content: RequestContent = .plain
    var maxResponseBytes: Int64? = 1 << 20
    var timeout: Duration? = .seconds(30)
    var baseURL: URL { URL(string: "https://files.example.com")! }
    var path: String { "blob" }
    var method: HTTPMethod { .get }
    var options: TargetOptions { TargetOptions(maxResponseBytes: maxResponseBytes) }
}

@Suite("Limits and downloads for a custom transport")
struct CustomTransportLimitTests {
    /// Made per use: a `Data` kept in a static is reported by LeakSanitizer at exit (it cannot see
    /// the storage behind a `Data`).
    static var twoMiB: Data { Data(repeating: 7, count: 2 << 20) }

    /// The limit a `.responseTooLarge` names, or `nil` for any other outcome.
    func tooLargeLimit(_ call: () async throws -> Response) async -> Int64? {
        do {
            _ = try await call()
        } catch NetworkError.responseTooLarge(let limit) {
            return limit
        } catch {
            Issue.record("failed otherwise: \(error)")
        }
        return nil
    }

    @Test("A custom transport's body past the target's maxResponseBytes fails with responseTooLarge")
    func bodyPastTheLimitFails() async {
        let provider = Provider<LimitedTarget>(transport: WholeBodyTransport(body: Self.twoMiB))
        #expect(await tooLargeLimit { try await provider.request(LimitedTarget()) } == 1 << 20)
    }

    @Test("A body within the limit passes unchanged")
    func bodyWithinTheLimitPasses() async throws {
        let provider = Provider<LimitedTarget>(transport: WholeBodyTransport(body: Self.twoMiB))
        let response = try await provider.request(LimitedTarget(maxResponseBytes: 4 << 20))
        #expect(response.data == Self.twoMiB)
    }

    @Test("DeduplicatingTransport and StubTransport over a custom transport enforce its limit too")
    func wrappersOverACustomTransportEnforceTheLimit() async {
        let custom = WholeBodyTransport(body: Self.twoMiB)
        let wrappers: [any Transport] = [
            DeduplicatingTransport(custom), StubTransport(network: custom) { _ in nil },
            StubTransport(network: DeduplicatingTransport(custom)) { _ in nil },
        ]
        for transport in wrappers {
            let provider = Provider<LimitedTarget>(transport: transport)
            #expect(await tooLargeLimit { try await provider.request(LimitedTarget()) } == 1 << 20, "\(type(of: transport))")
        }
    }

    @Test("A download through a custom transport is written to its destination")
    func downloadIsWrittenToItsDestination() async throws {
        let destination = ScratchFolders.make("custom-download").appendingPathComponent("nested/blob.bin")
        let provider = Provider<LimitedTarget>(transport: WholeBodyTransport(body: Data("file body".utf8)))
        let response = try await provider.request(LimitedTarget(content: .download(to: destination, resumable: false)))
        #expect(response.fileURL == destination)
        #expect(response.data.isEmpty)
        #expect(try Data(contentsOf: destination) == Data("file body".utf8))
    }

    @Test("A download whose destination a closure picks lands there through a custom transport")
    func downloadToClosureLandsAtItsDestination() async throws {
        let destination = ScratchFolders.make("custom-download-to").appendingPathComponent("picked.bin")
        let provider = Provider<LimitedTarget>(transport: WholeBodyTransport(body: Data("picked".utf8)))
        let response = try await provider.request(LimitedTarget(content: .downloadTo { _ in destination }))
        #expect(response.fileURL == destination)
        #expect(try Data(contentsOf: destination) == Data("picked".utf8))
    }

    @Test("A stream through a custom transport uses the request's timeout, not the idle timeout, and ends with its body")
    func streamKeepsTheWholeTimeoutAndEnds() async throws {
        let transport = WholeBodyTransport(body: Data("whole body".utf8))
        let stream = Provider<LimitedTarget>(transport: transport).stream(LimitedTarget(), options: StreamOptions(idleTimeout: .seconds(1)))
        var received = Data()
        for try await chunk in stream { received.append(chunk) }
        #expect(received == Data("whole body".utf8))
        #expect(transport.timeouts.withLock { $0 } == [.seconds(30)])
    }

    @Test("A stream through a custom transport fails a body past the limit with responseTooLarge")
    func streamBodyPastTheLimitFails() async {
        let stream = Provider<LimitedTarget>(transport: WholeBodyTransport(body: Self.twoMiB)).stream(LimitedTarget())
        #expect(await tooLargeLimit { try await stream.head } == 1 << 20)
    }
}
