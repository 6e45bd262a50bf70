import Foundation
import NetCore
import Testing
import NetTestSupport

/// A broken response is never a success, and no response can exhaust memory or outlive its
/// deadline, on either transport.
@Suite(.liveServers, .serialized)
struct IntegrityAndLimitsTests {
    static func kindName(_ error: NetworkError?) -> String { error?.code.rawValue ?? "success" }

    // `/cut-in-headers` is absent here: on URLSession it aborts the process inside
    // FoundationNetworking (see FoundationCrashTests); CurlCutHeadersTests covers curl.
    @Test(
        "Malformed framing is invalidResponse on both transports",
        arguments: TransportKind.allCases, ["/two-content-lengths", "/bad-status-line", "/bad-chunked"])
    func malformedFraming(kind: TransportKind, path: String) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let error = await outcome { try await Provider<HostileTarget>(transport: kind.make()).request(HostileTarget(path: path)) }.failure
        #expect(Self.kindName(error) == "invalidResponse", "\(path) on \(kind): \(String(describing: error))")
        #expect(error?.isTransient == false, "a protocol error is not retried as transient")
    }

    @Test("An empty reply is the same error on both transports", arguments: TransportKind.allCases)
    func emptyReply(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let error = await outcome { try await Provider<HostileTarget>(transport: kind.make()).request(HostileTarget(path: "/empty-reply")) }.failure
        #expect(Self.kindName(error) == "connectionLost", "\(String(describing: error))")
    }

    @Test("The connection closing inside the headers is invalidResponse (curl)")
    func cutHeadersCurl() async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let error = await outcome { try await Provider<HostileTarget>(transport: TransportKind.curl.make()).request(HostileTarget(path: "/cut-in-headers")) }
            .failure
        #expect(Self.kindName(error) == "invalidResponse", "\(String(describing: error))")
    }

    @Test("An endless body stops at maxResponseBytes", arguments: TransportKind.allCases)
    func endlessBody(kind: TransportKind) async throws {
        if skipsFloodUnderSanitizer(kind) { return }
        _ = try TestServers.require("NETKIT_FAULT_URL")
        // The server ends the body after 10 s, which bounds how long a stopped transfer can run.
        let target = HostileTarget(path: "/endless", content: .query(["seconds": 10]), timeout: .seconds(20), maxResponseBytes: 4 << 20)
        let transport = kind.make()
        let error = await outcome { try await Provider<HostileTarget>(transport: transport).request(target) }.failure
        await awaitStoppedTransfers(of: transport)
        guard case .responseTooLarge(let limit)? = error else {
            Issue.record("expected responseTooLarge, got \(String(describing: error))")
            return
        }
        #expect(limit == 4 << 20)
    }

    @Test("A Content-Length above the limit fails before the body is read", arguments: TransportKind.allCases)
    func hugeContentLength(kind: TransportKind) async throws {
        if skipsFloodUnderSanitizer(kind) { return }
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let key = UUID().uuidString
        // The provider's default limit (64 MiB) applies; the server announces 1 GiB.
        let transport = kind.make()
        let error = await outcome {
            try await Provider<HostileTarget>(transport: transport)
                .request(HostileTarget(path: "/huge-length", content: .query(["key": key]), timeout: .seconds(30)))
        }.failure
        #expect(Self.kindName(error) == "responseTooLarge", "\(String(describing: error))")
        await awaitStoppedTransfers(of: transport)
        let taken = try await settledFaultCounter(key, within: .seconds(20))
        #expect(taken != nil, "the server was still sending 20 s after the refusal")
        // What the server handed over before the client closed. curl: socket buffers only, far
        // below the 64 MiB limit. URLSession on Linux: the caller has its error at once, but
        // FoundationNetworking reads on, discarding, until its queue reaches the cancel; NetKit
        // cannot pause it (a resumed data task starts over), so on loopback that can be the whole
        // body (README's known limits). It must still end, which is checked above.
        if kind == .curl, let taken {
            #expect(taken < 32 << 20, "the client took \(taken) bytes of a body it should refuse at once")
        }
    }

    @Test("A gzip bomb stops at the limit counted on decoded bytes", arguments: TransportKind.allCases)
    func gzipBomb(kind: TransportKind) async throws {
        if skipsFloodUnderSanitizer(kind) { return }
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let target = HostileTarget(path: "/gzip-bomb", content: .query(["mb": 256]), timeout: .seconds(30), maxResponseBytes: 8 << 20)
        let transport = kind.make()
        let error = await outcome { try await Provider<HostileTarget>(transport: transport).request(target) }.failure
        await awaitStoppedTransfers(of: transport)
        #expect(Self.kindName(error) == "responseTooLarge", "\(String(describing: error))")
    }

    @Test("A 1 MiB header line is a clear error, not an out-of-memory", arguments: TransportKind.allCases)
    func hugeHeader(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let error = await outcome { try await Provider<HostileTarget>(transport: kind.make()).request(HostileTarget(path: "/big-header")) }.failure
        guard case .invalidResponse(let reason, _)? = error else {
            Issue.record("expected invalidResponse, got \(String(describing: error))")
            return
        }
        #expect(reason.contains("headers"), "\(reason)")
    }

    @Test(
        "Endless header lines and endless interim heads are the same invalidResponse on both transports",
        arguments: TransportKind.allCases, ["/endless-headers", "/interim-flood"])
    func endlessHeaders(kind: TransportKind, path: String) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        if kind == .urlSession { await awaitFoundationNetworkingIdle() }
        let provider = Provider<HostileTarget>(transport: kind.make(), configuration: .init(maxAttempts: 1))
        let error = await outcome { try await provider.request(HostileTarget(path: path, timeout: .seconds(10))) }.failure
        #expect(error?.code == .invalidResponse, "\(String(describing: error))")
        #expect(error.map { "\($0)".contains("headers") } == true, "\(String(describing: error))")
    }

    @Test("Cancelling a fast decompressing transfer ends it promptly (curl)")
    func cancelDuringBomb() async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: TransportKind.curl.make(), configuration: ProviderConfiguration(maxResponseBytes: nil))
        let target = HostileTarget(path: "/gzip-bomb", content: .query(["mb": 2048]), timeout: .seconds(60))
        // Warm the server's copy of the bomb so the transfer is busy inflating when cancelled.
        _ = await outcome {
            try await provider.request(HostileTarget(path: "/gzip-bomb", content: .query(["mb": 2048]), timeout: .seconds(60), maxResponseBytes: 1))
        }
        let clock = ContinuousClock()
        let task = Task { await outcome { try await provider.request(target) } }
        try await Task.sleep(for: .milliseconds(400))
        let cancelledAt = clock.now
        task.cancel()
        let result = await task.value
        let late = clock.now - cancelledAt
        #expect(Self.kindName(result.failure) == "cancelled", "\(String(describing: result.failure))")
        #expect(late < .milliseconds(NETKIT_SANITIZED ? 1000 : 250), "ended \(late) after the cancel")
    }

    @Test("A failed download leaves no temporary file beside its destination", arguments: TransportKind.allCases)
    func noStrayFiles(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-stray-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let transport = kind.make()
        let provider = Provider<HostileTarget>(transport: transport)
        let destination = folder.appendingPathComponent("out.bin")
        // The endless body is one of the unpaced endpoints the sanitizer pass leaves to curl. The
        // server ends it after 3 s, so how fast FoundationNetworking drains a stopped transfer
        // on a busy machine bounds nothing here: the wait below ends when the server's does.
        let endless: [(String, Parameters)] = skipsFloodUnderSanitizer(kind) ? [] : [("/endless", ["seconds": 3])]
        for (path, query) in [("/truncated", [:]), ("/reset-after-headers", [:])] + endless {
            let content = RequestContent.download(to: destination, resumable: false).addingQuery(query)
            _ = await outcome { try await provider.request(HostileTarget(path: path, content: content, timeout: .seconds(1))) }
        }
        await awaitStoppedTransfers(of: transport)
        // A destination that is a folder is refused before sending.
        let intoFolder = HostileTarget(path: "/range/1000", content: .download(to: folder, resumable: false))
        let error = await outcome { try await provider.request(intoFolder) }.failure
        #expect({ if case .invalidRequest? = error { true } else { false } }(), "\(String(describing: error))")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.path)
        #expect(left.isEmpty, "left behind: \(left)")
    }
}

/// Whether the sanitizer pass runs (it slows everything several times).
let NETKIT_SANITIZED = ProcessInfo.processInfo.environment["NETKIT_SANITIZER"] == "1"

/// Waits until a URLSessionTransport's stopped transfers have really ended (FoundationNetworking
/// keeps reading for a while after a cancel), so the next test does not compete with them; a
/// transfer still running after `limit` (a hang, not a slow machine: give such tests bodies the
/// server ends, like `/endless?seconds=`) fails the test. Other transports return at once.
func awaitStoppedTransfers(of transport: any Transport, limit: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async {
    guard let urlSession = transport as? URLSessionTransport else { return }
    let deadline = ContinuousClock.now + limit
    while await urlSession.unfinishedTaskCount() > 0 {
        guard ContinuousClock.now < deadline else {
            Issue.record("a stopped URLSession transfer was still running \(limit) later", sourceLocation: sourceLocation)
            return
        }
        try? await Task.sleep(for: .milliseconds(20))
    }
}

/// Whether a URLSession variant of an unpaced multi-gigabyte endpoint should be left out: under
/// the thread sanitizer FoundationNetworking drains such a body so slowly that the fault server
/// stays busy for minutes and the tests after it time out. The plain `scripts/test` run covers
/// these variants; the sanitizer pass keeps the curl ones.
func skipsFloodUnderSanitizer(_ kind: TransportKind) -> Bool {
    NETKIT_SANITIZED && kind == .urlSession
}
