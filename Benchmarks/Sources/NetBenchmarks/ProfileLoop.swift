import Foundation
import NetCore
import NetCurl
import NetPlugins
import Synchronization

/// `--profile-loop=N[,C[,bare|task|none|exec|real]]`: N requests through `Provider()` (default
/// transport) + 5 no-op plugins + decode (with `bare`: `CurlTransport.send` + decode; with `task`:
/// the same send in a `Task.immediate` of its own that the caller awaits, as a provider's call is;
/// with `none`: `Provider()` without plugins; with `exec`: callers on the transport's executor;
/// with `real`: the request tables' 5 real plugins; with `real:NAME`, e.g. `real:cache`, that one in
/// place of a no-op plugin), C at a time (default 1),
/// and nothing else; for counting instructions or syscalls per request (`perf stat`, `strace -c`,
/// callgrind): per request = (run of N2 − run of N1) / (N2 − N1).
func profileLoop(_ spec: String) async throws {
    let parts = spec.split(separator: ",").compactMap { Int($0) }
    let mode = spec.split(separator: ",").last.map(String.init) ?? ""
    let total = parts.first ?? 1000, concurrency = parts.count > 1 ? max(1, parts[1]) : 1
    let operation: @Sendable (Int) async throws -> Void
    let transport = CurlTransport()
    if mode == "bare" {
        let request = try await Provider<BenchAPI>(transport: transport).buildRequest(.small)
        operation = { _ in _ = try await transport.send(request, progress: nil).decode(SmallDocument.self) }
    } else if mode == "task" {
        let request = try await Provider<BenchAPI>(transport: transport).buildRequest(.small)
        operation = { _ in
            let call = Task.immediate { try await transport.send(request, progress: nil) }
            _ = try await call.value.decode(SmallDocument.self)
        }
    } else {
        let plugins: [any Plugin] =
            mode.hasPrefix("real") ? realPlugins(named: mode) : mode == "none" ? [] : (0..<5).map { _ in NoOpPlugin() }
        let provider = Provider<BenchAPI>(transport: transport, plugins: plugins)
        operation = { _ in _ = try await provider.request(.small, as: SmallDocument.self) }
    }
    let executor: (any TaskExecutor)? = mode == "exec" ? transport.executor : nil
    let before = threadCPUTimes()
    let run = try await measure(total: total, concurrency: concurrency, executor: executor, operation)
    print("\(run.requests) requests, \(format(run.perSecond)) req/s, \(format(run.cpuMicrosPerRequest, decimals: 1)) us CPU/req")
    for (thread, times) in threadCPUTimes() {
        let user = times.user - (before[thread]?.user ?? 0), system = times.system - (before[thread]?.system ?? 0)
        guard user + system > 0.001 else { continue }
        let perRequest = { (seconds: Double) in format(seconds * 1e6 / Double(run.requests), decimals: 1) }
        print("  \(thread): \(perRequest(user)) us user + \(perRequest(system)) us system per request")
    }
}

/// `--profile-cache=POLICY[,N]`: N memory cache hits (default 200,000) under `http` (RFC 9111) or
/// `cacheElseNetwork`, and nothing else; for `perf record` of one hit path.
func profileCacheHits(_ spec: String) async throws {
    let parts = spec.split(separator: ",")
    let policy: CachePolicy = parts.first == "http" ? .http : .cacheElseNetwork
    let total = parts.count > 1 ? Int(parts[1]) ?? 200_000 : 200_000
    let transport = FreshnessAddingTransport(base: CurlTransport())
    let provider = Provider<BenchAPI>(
        transport: transport, plugins: [CachePlugin(storage: .memory(), policy: policy, isPrivate: true)])
    _ = try await provider.request(.small, as: SmallDocument.self)
    let run = try await measure(total: total, concurrency: 1) { _ in _ = try await provider.request(.small, as: SmallDocument.self) }
    print("\(run.requests) hits, \(format(run.cpuMicrosPerRequest, decimals: 2)) us CPU/hit")
    let plugin = CachePlugin(storage: .memory(), policy: policy, isPrivate: true)
    let warm = Provider<BenchAPI>(transport: transport, plugins: [plugin])
    _ = try await warm.request(.small, as: SmallDocument.self)
    let template = try await warm.buildRequest(.small)
    let prepares = try await measure(total: total, concurrency: 1) { _ in
        var request = template
        _ = try await plugin.prepare(&request)
    }
    print("prepare alone: \(format(prepares.cpuMicrosPerRequest, decimals: 2)) us CPU")
}

/// CPU seconds (user + system) of each thread of this process, by "tid name" (Linux `/proc`).
func threadCPUTimes() -> [String: (user: Double, system: Double)] {
    var times: [String: (user: Double, system: Double)] = [:]
    let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
    for tid in (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? [] {
        guard let stat = try? String(contentsOfFile: "/proc/self/task/\(tid)/stat", encoding: .utf8),
            let open = stat.firstIndex(of: "("), let close = stat.lastIndex(of: ")")
        else { continue }
        let name = stat[stat.index(after: open)..<close]
        let fields = stat[stat.index(close, offsetBy: 2)...].split(separator: " ")
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { continue }
        times["\(tid) \(name)"] = (user / ticks, system / ticks)
    }
    return times
}

/// `--profile-handoff=N`: N round trips between a task on the global executor and a dedicated
/// thread, the way every request crosses to a curl loop and back (the task writes a byte to a
/// pipe the thread polls; the thread resumes the task's continuation), with no network and no
/// other work: the floor that one request's two hand-offs cost on this machine.
func profileHandoff(_ spec: String) async throws {
    let parts = spec.split(separator: ",")
    let total = parts.first.flatMap { Int($0) } ?? 100_000
    // With `,spin=MICROS` the thread first spins that long on the inbox before it polls (and the
    // task writes to the pipe only while the thread sleeps).
    let spin = parts.dropFirst().first { $0.hasPrefix("spin=") }.flatMap { Int($0.dropFirst(5)) } ?? 0
    var descriptors: [Int32] = [-1, -1]
    guard pipe(&descriptors) == 0 else { return }
    let (readEnd, writeEnd) = (descriptors[0], descriptors[1])
    struct Inbox { var waiting: [CheckedContinuation<Void, Never>] = []; var sleeping = false; var stop = false }
    let inbox = Mutex(Inbox())
    let thread = Thread {
        var byte: UInt8 = 0
        while true {
            let spinEnd = ContinuousClock.now + .microseconds(spin)
            var taken: [CheckedContinuation<Void, Never>] = []
            var stop = false
            repeat {
                let expired = ContinuousClock.now >= spinEnd
                (taken, stop) = inbox.withLock { box in
                    defer { box.waiting.removeAll() }
                    if box.waiting.isEmpty, !box.stop { box.sleeping = expired }
                    return (box.waiting, box.stop)
                }
                if expired { break }
            } while taken.isEmpty && !stop
            if stop { return }
            if taken.isEmpty {
                var entry = pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)
                _ = poll(&entry, 1, -1)
                _ = read(readEnd, &byte, 1)
                inbox.withLock { $0.sleeping = false }
                continue
            }
            for continuation in taken { continuation.resume() }
        }
    }
    thread.start()
    let run = try await measure(total: total, concurrency: 1) { _ in
        await withCheckedContinuation { continuation in
            let wake = inbox.withLock { box in
                box.waiting.append(continuation)
                return box.sleeping
            }
            if wake {
                var byte: UInt8 = 1
                _ = write(writeEnd, &byte, 1)
            }
        }
    }
    inbox.withLock { $0.stop = true }
    var stop: UInt8 = 0
    _ = write(writeEnd, &stop, 1)
    print("\(run.requests) round trips (spin \(spin) us), \(format(run.perSecond)) per second, \(format(run.cpuMicrosPerRequest, decimals: 1)) us CPU each")
}
