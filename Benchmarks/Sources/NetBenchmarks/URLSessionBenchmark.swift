#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import NetCore

/// raw URLSession + JSONDecoder versus Provider with 5 no-op plugins + request(_:as:), with
/// AsyncHTTPClient beside them.
func urlSessionBenchmark(total: Int) async throws {
    let url = Servers.nginx.appendingPathComponent("small.json")
    let rawDefault = URLSession(configuration: .default)
    let tunedConfiguration = URLSessionConfiguration.default
    tunedConfiguration.urlCache = nil
    let rawTuned = URLSession(configuration: tunedConfiguration)
    // The same settings as URLSessionTransport's default: no cache, no cookie store. Shows what
    // the Provider's layers cost on top of an identically configured session.
    let rawNoCookies = URLSession(
        configuration: {
            let configuration = URLSessionTransport.defaultConfiguration
            configuration.urlCache = nil
            return configuration
        }())
    let provider = Provider<BenchAPI>(transport: URLSessionTransport(), plugins: (0..<5).map { _ in NoOpPlugin() })
    let decoder = JSONDecoder()

    func raw(_ session: URLSession) -> @Sendable (Int) async throws -> Void {
        { _ in
            let (data, _) = try await session.data(for: URLRequest(url: url))
            _ = try decoder.decode(SmallDocument.self, from: data)
        }
    }
    let contenders: [(String, @Sendable (Int) async throws -> Void)] = [
        ("raw URLSession (urlCache nil) + JSONDecoder", raw(rawTuned)),
        ("raw URLSession (default config) + JSONDecoder", raw(rawDefault)),
        ("raw URLSession (no cache, no cookies) + JSONDecoder", raw(rawNoCookies)),
        ("Provider + URLSessionTransport + 5 plugins", { _ in _ = try await provider.request(.small, as: SmallDocument.self) }),
        ("AsyncHTTPClient (HTTPClient.shared) + JSONDecoder", PeerClients.asyncHTTPClient(url: url, decoder: decoder)),
    ]
    for concurrency in [1, 8] {
        let results = try await compare(contenders, total: total, concurrency: concurrency)
        report("URLSession, \(concurrency == 1 ? "sequential" : "\(concurrency) concurrent"), \(total) GETs of a 95-byte JSON", results)
    }
}
