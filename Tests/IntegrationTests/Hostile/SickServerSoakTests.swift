import Foundation
import NetCore
import NetCurl
import NetPlugins
import Testing
import NetTestSupport

/// A shorter version of the soak that found healthy calls queuing behind hostile bulk bodies: 64
/// callers on the default transport's engine, nine in ten small GETs to a healthy nginx, one in
/// ten to sick HTTP/1.1 servers (endless chunked bodies and a gzip bomb cut off at the size
/// limit, a server that never answers, resets, a truncated body) with 1 s deadlines, RetryPlugin on.
@Suite(.liveServers, .serialized)
struct SickServerSoakTests {
    struct Sample {
        var path: String
        var sick: Bool
        var time: Duration
        var timeout: Duration
        var late: Duration { time - timeout }
    }

    static let sickPaths: [(path: String, query: Parameters)] = [
        ("/endless", [:]), ("/gzip-bomb", ["mb": 256]), ("/hang", [:]), ("/reset-before-headers", [:]), ("/truncated", [:]),
    ]
    static var seconds: Double { Double(TestServers.value("NETKIT_SOAK_SECONDS") ?? "") ?? (NETKIT_SANITIZED ? 6 : 15) }

    static func target(_ index: Int, fault: URL, nginx: URL, sick: Bool = true) -> HostileTarget {
        guard sick, index % 10 == 0 else { return HostileTarget(path: "/small.json", base: nginx, timeout: .seconds(5)) }
        let sick = sickPaths[(index / 10) % sickPaths.count]
        return HostileTarget(path: sick.path, content: sick.query.isEmpty ? .plain : .query(sick.query), base: fault, timeout: .seconds(1))
    }

    /// `callers` callers for ``seconds`` on a transport of their own, released when they finish;
    /// with `sick` off, only healthy calls (the machine's own floor, measured meanwhile).
    static func load(fault: URL, nginx: URL, sick: Bool = true, callers: Int = 64) async -> [Sample] {
        // NETKIT_SOAK_LOOPS forces the loop count (to compare one loop with the default, one per core).
        let loops = Int(TestServers.value("NETKIT_SOAK_LOOPS") ?? "") ?? 0
        let provider = Provider<HostileTarget>(transport: CurlTransport(configuration: .init(eventLoops: loops)), plugins: [RetryPlugin(maxRetries: 2)])
        let end = ContinuousClock.now + .seconds(seconds)
        return await withTaskGroup(of: [Sample].self) { group in
            for caller in 0..<callers {
                group.addTask {
                    var samples: [Sample] = []
                    var index = caller
                    while ContinuousClock.now < end {
                        index += 1
                        let target = Self.target(index, fault: fault, nginx: nginx, sick: sick)
                        let outcome = await timed { try await provider.request(target) }
                        samples.append(Sample(path: target.path, sick: target.base == fault, time: outcome.time, timeout: target.timeout!))
                    }
                    return samples
                }
            }
            var all: [Sample] = []
            for await samples in group { all += samples }
            return all
        }
    }

    @Test("Sick servers neither make calls overrun their deadlines nor hold up healthy calls")
    func soak() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let descriptorsBefore = ProcessProbe.openDescriptors()
        // Healthy calls only, from 8 callers on a transport of their own, at the same time: what
        // this machine (shared with the hostile servers, and perhaps with a build) makes a call
        // wait right now. The bounds below allow for that floor on top of what sick transfers
        // may add. On a machine whose cores are taken by other work, healthy calls on the sick
        // transport still wait far longer than this floor (the engine's bulk transfers get the
        // loop's share of a scarce CPU): a known limit of the engine, not of the test.
        async let reference = Self.load(fault: fault, nginx: nginx, sick: false, callers: 8)
        let samples = await Self.load(fault: fault, nginx: nginx)
        let baseline = await reference.map(\.time).max() ?? .zero
        let healthy = samples.filter { !$0.sick }.map(\.time).sorted()
        let late = samples.filter { $0.late > .milliseconds(100) }
        let p50 = healthy[healthy.count / 2], p99 = healthy[healthy.count * 99 / 100], worst = healthy.last!
        print(
            "[soak] \(samples.count) calls (\(healthy.count) healthy): healthy p50 \(p50), p99 \(p99), max \(worst) (beside it, alone: max \(baseline)); "
                + "\(late.count) past deadline + 100 ms \(Set(late.map(\.path)).sorted()), worst overrun \(samples.map(\.late).max()!)")
        // The hostile servers share this machine's cores with the client (the full soak pins them
        // apart), so the bounds here leave room for that; the figures printed above are the
        // measurement (see Benchmarks/INVESTIGATIONS.md). Before the transfers took turns, healthy calls
        // waited up to 1 s and calls overran their deadlines by 0.8 s.
        let overrunBound = Duration.milliseconds(NETKIT_SANITIZED ? 1500 : 400) + baseline
        let worstOverrun = samples.map(\.late).max() ?? .zero
        #expect(worstOverrun <= overrunBound, "a call ended \(worstOverrun) past its deadline (healthy calls beside it took up to \(baseline))")
        #expect(worst <= .milliseconds(NETKIT_SANITIZED ? 3000 : 600) + baseline, "healthy max \(worst), beside it \(baseline)")
        // A library may open a file or two lazily on first use (OpenSSL's random source).
        let settled = await ProcessProbe.openDescriptors(settlingAtMost: descriptorsBefore + 2, within: .seconds(10))
        #expect(settled <= descriptorsBefore + 2, "descriptors: \(descriptorsBefore) before, \(settled) after")
    }
}
