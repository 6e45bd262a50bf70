#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import NetCore
import NetCurl
import NetPlugins

/// `Provider()` with its default transport (CurlTransport on Linux) + 5 no-op plugins + JSON
/// decode (and the same with 5 real plugins), against raw URLSession, AsyncHTTPClient, the bare
/// transport, the same GETs from C on libcurl multi, and wrk (the physical limit) on the same nginx.
func curlBenchmark(total: Int) async throws {
    let url = Servers.nginx.appendingPathComponent("small.json")
    let configuration = URLSessionConfiguration.default
    configuration.urlCache = nil
    let session = URLSession(configuration: configuration)
    let decoder = JSONDecoder()
    // What a user gets from `Provider<API>()` on Linux: the shared default CurlTransport.
    let curlProvider = Provider<BenchAPI>(plugins: (0..<5).map { _ in NoOpPlugin() })
    guard let curlTransport = DefaultTransport.shared as? CurlTransport else {
        print("the default transport is not CurlTransport on this platform; skipping")
        return
    }
    // Five plugins doing real work: logging (output discarded), retry, a cache that stores every
    // response (it serves only on failure), a header added to each request, capture.
    let realProvider = Provider<BenchAPI>(plugins: realPlugins())
    // One loop per core (the default is one per two cores), to show how the engine scales.
    let perCore = ProcessInfo.processInfo.activeProcessorCount
    let loopPerCore = Provider<BenchAPI>(
        transport: CurlTransport(configuration: .init(eventLoops: perCore)), plugins: (0..<5).map { _ in NoOpPlugin() })
    // Loops that poll for 100 µs before they sleep (opt-in): the cost of thread hand-offs.
    let busyPolling = Provider<BenchAPI>(
        transport: CurlTransport(configuration: .init(busyPoll: .microseconds(100))), plugins: (0..<5).map { _ in NoOpPlugin() })
    let onLoop = "same, callers on transport.executor"
    let contenders: [(String, @Sendable (Int) async throws -> Void)] = [
        (
            "raw URLSession + JSONDecoder",
            { _ in
                let (data, _) = try await session.data(for: URLRequest(url: url))
                _ = try decoder.decode(SmallDocument.self, from: data)
            }
        ),
        ("Provider() (default CurlTransport) + 5 plugins", { _ in _ = try await curlProvider.request(.small, as: SmallDocument.self) }),
        (onLoop, { _ in _ = try await curlProvider.request(.small, as: SmallDocument.self) }),
        ("Provider() + 5 real plugins (logger, retry, cache, mutation, capture)", { _ in _ = try await realProvider.request(.small, as: SmallDocument.self) }),
        ("same 5 no-op plugins, CurlTransport(eventLoops: \(perCore))", { _ in _ = try await loopPerCore.request(.small, as: SmallDocument.self) }),
        ("same 5 no-op plugins, CurlTransport(busyPoll: 100 µs)", { _ in _ = try await busyPolling.request(.small, as: SmallDocument.self) }),
        ("AsyncHTTPClient (HTTPClient.shared) + JSONDecoder", PeerClients.asyncHTTPClient(url: url, decoder: decoder)),
        ("bare CurlTransport.send + JSONDecoder", PeerClients.bareCurl(curlTransport, url: url)),
    ]
    for concurrency in [1, 8] {
        let results = try await compare(
            contenders, total: total * (concurrency == 1 ? 1 : 2), concurrency: concurrency,
            executors: [onLoop: curlTransport.executor])
        report("CurlTransport, \(concurrency == 1 ? "sequential" : "\(concurrency) concurrent")", results)
        let curl = results[1].1.perSecond, curlOnLoop = results[2].1.perSecond, real = results[3].1.perSecond
        let perCoreLoops = results[4].1.perSecond, polling = results[5].1.perSecond
        let provider = results[1].1, peer = results[6].1, bare = results[7].1
        print(
            "Provider() + 5 plugins: \(format(provider.perSecond / peer.perSecond, decimals: 2))x AsyncHTTPClient's req/s"
                + " at \(format(provider.cpuMicrosPerRequest / peer.cpuMicrosPerRequest, decimals: 2))x its CPU per request;"
                + " \(format(provider.cpuMicrosPerRequest / bare.cpuMicrosPerRequest, decimals: 2))x the CPU per request of bare CurlTransport.send")
        /// The share of `baseline` (requests per second) reached, default and on the executor.
        func reached(_ baseline: Double) -> String {
            "Provider + CurlTransport reaches \(format(curl / baseline, decimals: 2)) of it"
                + " (\(format(curlOnLoop / baseline, decimals: 2)) with callers on transport.executor,"
                + " \(format(real / baseline, decimals: 2)) with 5 real plugins,"
                + " \(format(perCoreLoops / baseline, decimals: 2)) with a loop per core,"
                + " \(format(polling / baseline, decimals: 2)) with busyPoll 100 µs)"
        }
        if let reference = runCurlReference(url: url, total: total * (concurrency == 1 ? 1 : 4), concurrency: concurrency) {
            print(
                "C libcurl multi, one thread, handles reused: \(format(reference.perSecond)) req/s,"
                    + " \(format(reference.cpuMicrosPerRequest, decimals: 1)) us CPU/req; \(reached(reference.perSecond))")
        }
        if let wrk = runWrk(url: url, connections: concurrency) {
            print("wrk -t1 -c\(concurrency): \(format(wrk)) req/s; \(reached(wrk))")
        }
    }
}

/// Runs the C program `CurlMultiReference` (built beside this benchmark) and returns its
/// measurement, or nil when it is missing or fails.
func runCurlReference(url: URL, total: Int, concurrency: Int) -> Measurement? {
    let binary = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("CurlMultiReference")
    guard let output = runTool(binary, [url.absoluteString, "\(total)", "\(concurrency)"]) else { return nil }
    let fields = output.split(whereSeparator: \.isWhitespace).compactMap { Double($0) }
    guard fields.count == 3 else { return nil }
    return Measurement(requests: Int(fields[0]), seconds: fields[1], cpuSeconds: fields[2])
}

/// Runs `executable` with `arguments` and returns its standard output, or nil when it cannot
/// start or exits with a failure.
func runTool(_ executable: URL, _ arguments: [String]) -> String? {
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    do { try process.run() } catch { return nil }
    let output = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { return nil }
    return String(decoding: output, as: UTF8.self)
}

/// Runs wrk for 3 s and returns its requests per second, or nil when wrk is not installed.
func runWrk(url: URL, connections: Int) -> Double? {
    guard let output = runTool(URL(fileURLWithPath: "/usr/bin/env"), ["wrk", "-t1", "-c\(connections)", "-d3s", url.absoluteString]) else {
        return nil
    }
    let line = output.split(separator: "\n").first { $0.hasPrefix("Requests/sec:") }
    return line.flatMap { Double($0.split(separator: " ").last ?? "") }
}

/// The request tables' five real plugins: logger, retry, cache, mutation, capture. With `only`
/// (one of those names), that plugin alone in its place among four no-op plugins, to price each.
func realPlugins(only: String? = nil) -> [any Plugin] {
    let all: [(name: String, plugin: any Plugin)] = [
        ("logger", LoggerPlugin(output: { _ in })), ("retry", RetryPlugin()),
        ("cache", CachePlugin(storage: .memory(), policy: .networkElseCache)),
        ("mutation", MutationPlugin(request: { $0.headers["X-Bench"] = "1" })), ("capture", CapturePlugin()),
    ]
    guard let only else { return all.map(\.plugin) }
    return all.map { $0.name == only ? $0.plugin : NoOpPlugin() }
}

/// The real plugins a profiling row names: `real` for all five, `real:NAME` for one of them.
func realPlugins(named row: String) -> [any Plugin] {
    realPlugins(only: row.split(separator: ":", maxSplits: 1).dropFirst().first.map(String.init))
}
