#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Foundation
import NetCore

final class NoDelegate: NSObject, URLSessionTaskDelegate, Sendable {}

func experiment(total: Int) async throws {
    let url = Servers.nginx.appendingPathComponent("small.json")
    let configuration = URLSessionConfiguration.default
    configuration.urlCache = nil
    let raw = URLSession(configuration: configuration)
    let withDelegate = URLSession(configuration: configuration, delegate: NoDelegate(), delegateQueue: nil)
    let transport = URLSessionTransport()
    let request = Request(url: url, target: BenchAPI.small)
    let provider0 = Provider<BenchAPI>(transport: transport)
    func completion(_ session: URLSession) -> @Sendable (Int) async throws -> Void {
        { _ in
            _ = try await withCheckedThrowingContinuation { (c: CheckedContinuation<Data, any Error>) in
                session.dataTask(with: URLRequest(url: url)) { data, _, error in
                    if let error { c.resume(throwing: error) } else { c.resume(returning: data ?? Data()) }
                }.resume()
            }
        }
    }
    let contenders: [(String, @Sendable (Int) async throws -> Void)] = [
        ("raw data(for:)", { _ in _ = try await raw.data(for: URLRequest(url: url)) }),
        ("raw completion", completion(raw)),
        ("delegate completion", completion(withDelegate)),
        ("transport.send", { _ in _ = try await transport.send(request) }),
        ("provider 0 plugins", { _ in _ = try await provider0.request(.small) }),
    ]
    for concurrency in [1, 8] {
        report("experiment c=\(concurrency)", try await compare(contenders, total: total, concurrency: concurrency))
    }
}
