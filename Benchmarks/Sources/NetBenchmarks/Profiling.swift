// Profiling modes for finding where time goes (not part of the published comparisons):
//   --micro, --micro-cache (COUNT=, SKIP_DECODE=1, ONLY_DECODE=1, DISK=1), --micro-plugins, --profile-curl,
//   --profile-seq (ON_LOOP=1: on transport.executor, C= concurrency, N= requests, BARE=1: transport.send only), --curl-layers,
//   --us-raw (NOCOOKIES=1, DELEGATE=1), --us-ours (C= concurrency, PROVIDER=1 with PLUGINS= no-op plugins, COOKIES=1).
// Run them under `perf record -g` with the servers of scripts/with-servers.
import Foundation
import Dispatch
import NetCore
import NetPlugins

func micro() async {
    let n = 20_000
    let clock = ContinuousClock()
    var start = clock.now
    for _ in 0..<n { _ = await Task { 1 }.value }
    print("Task{}.value:", (clock.now - start) / n)
    start = clock.now
    for _ in 0..<n {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .seconds(60))
        timer.setEventHandler {}
        timer.resume()
        timer.cancel()
    }
    print("timer source:", (clock.now - start) / n)
    start = clock.now
    for _ in 0..<n { _ = UUID() }
    print("UUID:", (clock.now - start) / n)
    start = clock.now
    for _ in 0..<n { _ = URL(string: "http://127.0.0.1:8080/small.json") }
    print("URL(string:):", (clock.now - start) / n)
    start = clock.now
    for _ in 0..<n { _ = await withCheckedContinuation { (c: CheckedContinuation<Int, Never>) in c.resume(returning: 1) } }
    print("continuation:", (clock.now - start) / n)
}

func microProvider() async throws {
    let n = 50_000
    let clock = ContinuousClock()
    let stub = StubTransport()
    let plugins: [any Plugin] = (0..<5).map { _ in NoOpPlugin() }
    let provider = Provider<BenchAPI>(transport: stub, plugins: plugins)
    let provider0 = Provider<BenchAPI>(transport: stub)
    let request = Request(url: URL(string: "http://127.0.0.1/small.json")!, target: BenchAPI.small)
    for _ in 0..<1000 { _ = try await provider.request(.small) }
    var start = clock.now
    for _ in 0..<n { _ = try await stub.send(request) }
    print("stub.send:", (clock.now - start) / n)
    start = clock.now
    for _ in 0..<n { _ = try await provider0.request(.small) }
    print("provider 0 plugins + stub:", (clock.now - start) / n)
    start = clock.now
    for _ in 0..<n { _ = try await provider.request(.small) }
    print("provider 5 plugins + stub:", (clock.now - start) / n)
    start = clock.now
    for _ in 0..<n { _ = Request(url: URL(string: "http://127.0.0.1/small.json")!, target: BenchAPI.small) }
    print("Request.init:", (clock.now - start) / n)
}

func microCache() async throws {
    // DISK=1: a DiskStorage in a temporary directory instead of memory.
    let storage: any CacheStorage =
        ProcessInfo.processInfo.environment["DISK"] == nil
        ? MemoryStorage()
        : DiskStorage(directory: FileManager.default.temporaryDirectory.appendingPathComponent("netkit-micro-\(UUID().uuidString)"))
    let provider = Provider<BenchAPI>(transport: StubTransport(), plugins: [CachePlugin(storage: storage, policy: .cacheElseNetwork)])
    _ = try await provider.request(.small)
    let clock = ContinuousClock()
    let n = Int(ProcessInfo.processInfo.environment["COUNT"] ?? "") ?? 100_000
    let start = clock.now
    if ProcessInfo.processInfo.environment["ONLY_DECODE"] == nil {
        for _ in 0..<n { _ = try await provider.request(.small) }
        print("memory hit (no decode):", (clock.now - start) / n)
    }
    if ProcessInfo.processInfo.environment["SKIP_DECODE"] != nil { return }
    let decodeStart = clock.now
    for _ in 0..<n { _ = try await provider.request(.small, as: SmallDocument.self) }
    print("memory hit (decode):", (clock.now - decodeStart) / n)
}

import NetCurl
#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
func profileCurl() async throws {
    let provider = Provider<BenchAPI>(transport: CurlTransport(), plugins: (0..<5).map { _ in NoOpPlugin() })
    let m = try await measure(total: 40_000, concurrency: 8) { _ in _ = try await provider.request(.small, as: SmallDocument.self) }
    print("provider+curl c8: \(m.perSecond) req/s, \(m.cpuMicrosPerRequest) us CPU")
    let transport = CurlTransport()
    let request = Request(url: Servers.nginx.appendingPathComponent("small.json"), target: BenchAPI.small)
    let t = try await measure(total: 40_000, concurrency: 8) { _ in _ = try await transport.send(request) }
    print("curl transport c8: \(t.perSecond) req/s, \(t.cpuMicrosPerRequest) us CPU")
}

func profileCurlLayers() async throws {
    let transport = CurlTransport()
    let request = Request(url: Servers.nginx.appendingPathComponent("small.json"), target: BenchAPI.small)
    let bare = Provider<BenchAPI>(transport: transport)
    let full = Provider<BenchAPI>(transport: transport, plugins: (0..<5).map { _ in NoOpPlugin() })
    for c in [1, 8] {
        let results = try await compare(
            [
                ("transport.send", { _ in _ = try await transport.send(request) }),
                ("provider, 0 plugins", { _ in _ = try await bare.request(.small) }),
                ("provider, 0 plugins + decode", { _ in _ = try await bare.request(.small, as: SmallDocument.self) }),
                ("provider, 5 plugins", { _ in _ = try await full.request(.small) }),
                ("provider, 5 plugins + decode", { _ in _ = try await full.request(.small, as: SmallDocument.self) }),
                (
                    "same, loop executor",
                    { _ in
                        _ = try await withTaskExecutorPreference(transport.executor) { try await full.request(.small, as: SmallDocument.self) }
                    }
                ),
            ], total: 10_000, concurrency: c)
        report("curl layers c=\(c)", results)
        for _ in 0..<3 {
            let m = try await measure(total: 10_000, concurrency: c, executor: transport.executor) { _ in
                _ = try await full.request(.small, as: SmallDocument.self)
            }
            print("workers on the loop executor: \(format(m.perSecond)) req/s, \(format(m.cpuMicrosPerRequest, decimals: 1)) us CPU")
        }
    }
}

func profileURLSession(raw: Bool) async throws {
    let url = Servers.nginx.appendingPathComponent("small.json")
    let environment = ProcessInfo.processInfo.environment
    // NOCOOKIES=1: the raw session is configured like the transport's default; DELEGATE=1: it also
    // has a session delegate (as the transport's has) that implements nothing.
    let configuration = environment["NOCOOKIES"] != nil ? URLSessionTransport.defaultConfiguration : URLSessionConfiguration.default
    configuration.urlCache = nil
    let session =
        environment["DELEGATE"] != nil
        ? URLSession(configuration: configuration, delegate: EmptySessionDelegate(), delegateQueue: nil)
        : URLSession(configuration: configuration)
    // COOKIES=1: a session with URLSession's cookie store, as before the transport's default dropped it.
    let transport = ProcessInfo.processInfo.environment["COOKIES"] != nil ? URLSessionTransport(configuration: .default) : URLSessionTransport()
    let request = Request(url: url, target: BenchAPI.small)
    let concurrency = Int(ProcessInfo.processInfo.environment["C"] ?? "") ?? 8
    let plugins = Int(ProcessInfo.processInfo.environment["PLUGINS"] ?? "") ?? 5
    let provider =
        ProcessInfo.processInfo.environment["PROVIDER"] != nil
        ? Provider<BenchAPI>(transport: transport, plugins: (0..<plugins).map { _ in NoOpPlugin() }) : nil
    let m = try await measure(total: 8_000, concurrency: concurrency) { _ in
        if raw {
            _ = try await session.data(for: URLRequest(url: url))
        } else if let provider {
            _ = try await provider.request(.small, as: SmallDocument.self)
        } else {
            _ = try await transport.send(request)
        }
    }
    print("\(raw ? "raw" : "transport"): \(m.perSecond) req/s, \(m.cpuMicrosPerRequest) us CPU")
}

/// A session delegate that implements nothing.
final class EmptySessionDelegate: NSObject, URLSessionTaskDelegate, Sendable {}

func microPlugins() async throws {
    let stub = StubTransport(
        behavior: .custom { request in
            Response(
                statusCode: 200, headers: ["Content-Type": "application/json", "Content-Length": "95"],
                data: Data(#"{"id":1,"name":"NetKit","tags":["a","b"],"active":true,"score":9.5,"note":"benchmark payload"}"#.utf8) + Data("\n".utf8),
                request: request)
        })
    let bare = Provider<BenchAPI>(transport: stub)
    let logged = Provider<BenchAPI>(transport: stub, plugins: [LoggerPlugin(output: { _ in })])
    let captured = Provider<BenchAPI>(transport: stub, plugins: [CapturePlugin()])
    let clock = ContinuousClock()
    let n = 50_000
    for (name, provider) in [("bare", bare), ("logger", logged), ("capture", captured)] {
        for _ in 0..<1000 { _ = try await provider.request(.small) }
        let start = clock.now
        for _ in 0..<n { _ = try await provider.request(.small) }
        print(name, (clock.now - start) / n)
    }
}

func profileSequential() async throws {
    let transport = CurlTransport()
    let full = Provider<BenchAPI>(transport: transport, plugins: (0..<5).map { _ in NoOpPlugin() })
    let environment = ProcessInfo.processInfo.environment
    let onLoop = environment["ON_LOOP"] != nil
    let concurrency = Int(environment["C"] ?? "") ?? 1
    let total = Int(environment["N"] ?? "") ?? 20_000
    let bare = environment["BARE"] != nil
    let request = Request(url: Servers.nginx.appendingPathComponent("small.json"), target: BenchAPI.small)
    let m = try await measure(total: total, concurrency: concurrency, executor: onLoop ? transport.executor : nil) { _ in
        if bare { _ = try await transport.send(request) } else { _ = try await full.request(.small, as: SmallDocument.self) }
    }
    print(
        "c\(concurrency)\(bare ? " transport.send" : "")\(onLoop ? " on the loop executor" : ""): \(format(m.perSecond)) req/s, \(format(m.cpuMicrosPerRequest, decimals: 1)) us CPU"
    )
}
