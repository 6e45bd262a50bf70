import Foundation
import NetCore
import NetCurl
import NetPlugins
import Testing
import NetTestSupport

/// A hostile HTTP/2 server that floods a connection with frames carrying no body byte must not
/// hold its call past the deadline, delay a cancel, or stall calls to other servers.
///
/// libcurl 7.88 reads such a connection in a loop that never returns while frames keep coming;
/// the transport's stall watchdog cuts the connection off.
@Suite(.liveServers, .serialized)
struct HTTP2FloodTests {
    /// Frame kinds × frames per write (tiny writes and big batches take different paths in libcurl).
    static let floods: [(kind: String, batch: Int)] = [
        ("unknown", 1), ("unknown", 512), ("empty-data", 512), ("priority", 512), ("ping", 512), ("window-update", 512),
    ]
    static var slack: Duration { .milliseconds(NETKIT_SANITIZED ? 600 : 100) }

    @Test("A frame flood ends its call by the deadline and a call to another server still gets through at once", arguments: floods)
    func floodDoesNotStallOthers(kind: String, batch: Int) async throws {
        let (base, pinning) = try HTTP2Fault.server()
        let other = try TestServers.require("NETKIT_NGINX_URL")
        let provider = Provider<HostileTarget>(transport: CurlTransport(), plugins: [pinning], configuration: .init(maxAttempts: 1))
        let flood = HostileTarget(path: "/flood", content: .query(["kind": kind, "batch": batch, "seconds": 8]), base: base, timeout: .seconds(3))
        async let flooded = timed { try await provider.request(flood) }
        try await Task.sleep(for: .milliseconds(500))
        let healthy = await timed { try await provider.request(HostileTarget(path: "/small.json", base: other, timeout: .seconds(2))) }
        let (floodResult, floodTime) = await flooded
        #expect(floodResult.failure != nil, "a flood without a body is never a success: \(floodResult)")
        #expect(floodTime < .seconds(3) + Self.slack, "the flooded call took \(floodTime)")
        #expect((try? healthy.result.get())?.statusCode == 200, "\(healthy.result)")
        #expect(healthy.time < .milliseconds(NETKIT_SANITIZED ? 1500 : 300), "the healthy call took \(healthy.time)")
    }

    @Test("A cancel during a frame flood ends the call within 100 ms")
    func cancelDuringFlood() async throws {
        let (base, pinning) = try HTTP2Fault.server()
        let provider = Provider<HostileTarget>(transport: CurlTransport(), plugins: [pinning], configuration: .init(maxAttempts: 1))
        let flood = HostileTarget(path: "/flood", content: .query(["kind": "unknown", "batch": 512, "seconds": 8]), base: base, timeout: .seconds(6))
        let call = Task { await timed { try await provider.request(flood) } }
        try await Task.sleep(for: .milliseconds(700))
        let cancelled = ContinuousClock.now
        call.cancel()
        let outcome = await call.value
        #expect(outcome.result.failure != nil)
        #expect(ContinuousClock.now - cancelled < Self.slack, "the cancel took \(ContinuousClock.now - cancelled)")
    }

    @Test("A flood on a transport's second loop is cut like on the first, and calls on the other loop go on")
    func floodOnSecondLoop() async throws {
        let (base, pinning) = try HTTP2Fault.server()
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let other = try TestServers.require("NETKIT_NGINX_URL")
        let transport = CurlTransport(configuration: .init(eventLoops: 2))
        let provider = Provider<HostileTarget>(transport: transport, plugins: [pinning], configuration: .init(maxAttempts: 1))
        // A transfer that idles on the first loop, so that the flood goes to the second.
        let idle = Task { try await Provider<HostileTarget>(transport: transport).request(HostileTarget(path: "/hang", base: fault, timeout: .seconds(30))) }
        try await Task.sleep(for: .milliseconds(200))
        let flood = HostileTarget(path: "/flood", content: .query(["kind": "unknown", "batch": 512, "seconds": 8]), base: base, timeout: .seconds(3))
        async let flooded = timed { try await provider.request(flood) }
        try await Task.sleep(for: .milliseconds(500))
        var slowest = Duration.zero
        for _ in 0..<5 {
            let healthy = await timed { try await provider.request(HostileTarget(path: "/small.json", base: other, timeout: .seconds(2))) }
            #expect((try? healthy.result.get())?.statusCode == 200, "\(healthy.result)")
            slowest = max(slowest, healthy.time)
        }
        let (floodResult, floodTime) = await flooded
        idle.cancel()
        #expect(floodResult.failure != nil, "a flood without a body is never a success: \(floodResult)")
        #expect(floodTime < .seconds(3) + Self.slack, "the flooded call took \(floodTime)")
        #expect(slowest < .milliseconds(NETKIT_SANITIZED ? 1500 : 300), "the slowest healthy call took \(slowest)")
    }

    @Test("A flood on the shared default transport leaves another provider's calls alone")
    func sharedDefaultTransport() async throws {
        let (base, pinning) = try HTTP2Fault.server()
        let other = try TestServers.require("NETKIT_NGINX_URL")
        let flooding = Provider<HostileTarget>(plugins: [pinning], configuration: .init(maxAttempts: 1))
        let bystander = Provider<HostileTarget>()
        let flood = HostileTarget(path: "/flood", content: .query(["kind": "empty-data", "batch": 512, "seconds": 8]), base: base, timeout: .seconds(3))
        async let flooded = timed { try await flooding.request(flood) }
        try await Task.sleep(for: .milliseconds(500))
        var slowest = Duration.zero
        for _ in 0..<5 {
            let healthy = await timed { try await bystander.request(HostileTarget(path: "/small.json", base: other, timeout: .seconds(2))) }
            #expect((try? healthy.result.get())?.statusCode == 200, "\(healthy.result)")
            slowest = max(slowest, healthy.time)
        }
        let (floodResult, floodTime) = await flooded
        #expect(floodResult.failure != nil)
        #expect(floodTime < .seconds(3) + Self.slack)
        #expect(slowest < .milliseconds(NETKIT_SANITIZED ? 1500 : 300), "the slowest bystander call took \(slowest)")
    }
}

/// The misbehaving HTTP/2 server (`scripts/h2_fault_server.py`) and a pinning plugin that trusts
/// its certificate (the TLS nginx's, made per run).
enum HTTP2Fault {
    static func server() throws -> (url: URL, plugin: PinningPlugin) {
        let url = try TestServers.require("NETKIT_H2_FAULT_URL")
        let pin = try TestServers.requireValue("NETKIT_TLS_PIN")
        let path = try TestServers.requireValue("NETKIT_TLS_CERT")
        let certificate = try Data(contentsOf: URL(fileURLWithPath: path))
        return (url, PinningPlugin([try .init(host: "127.0.0.1", keyHashes: [pin], certificates: [certificate])]))
    }
}

/// The outcome of `body` and how long it took.
func timed(_ body: () async throws -> Response) async -> (result: Result<Response, NetworkError>, time: Duration) {
    let start = ContinuousClock.now
    let result = await outcome(body)
    return (result, ContinuousClock.now - start)
}
