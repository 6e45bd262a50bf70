import AsyncHTTPClient
import Foundation
import NIOCore
import NetCore
import NetCurl

/// The two rows every request table carries beside NetKit's own: AsyncHTTPClient as a user gets
/// it (`HTTPClient.shared`, its default configuration: one event loop per core) and NetKit's
/// transport without the provider (what the pipeline adds is the difference to the
/// `Provider()` row). Both decode the same document with the same `JSONDecoder`.
enum PeerClients {
    /// `GET url` on AsyncHTTPClient's shared client, body collected, then decoded.
    static func asyncHTTPClient(url: URL, decoder: JSONDecoder) -> @Sendable (Int) async throws -> Void {
        let address = url.absoluteString
        return { _ in
            let response = try await HTTPClient.shared.execute(HTTPClientRequest(url: address), timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            _ = try decoder.decode(SmallDocument.self, from: Data(body.readableBytesView))
        }
    }

    /// `CurlTransport.send` of a request made per call (its deadline starts with it), then decode.
    static func bareCurl(_ transport: CurlTransport, url: URL) -> @Sendable (Int) async throws -> Void {
        { _ in
            let request = Request(url: url, timeout: .seconds(30), target: BenchAPI.small)
            _ = try await transport.send(request, progress: nil).decode(SmallDocument.self)
        }
    }
}
