import Foundation
import NetCore
@testable import NetBase
@testable import NetCore
@testable import NetCurl
import NetTestSupport
import Testing

extension Request {
    /// A request for `url` built directly (no provider).
    static func to(
        _ url: URL, method: HTTPMethod = .get, headers: HTTPHeaders = [:], body: RequestBody = .none,
        timeout: Duration = .seconds(30), download: DownloadDestination? = nil, tls: TLSPolicy? = nil
    ) -> Request {
        var request = Request(method: method, url: url, headers: headers, body: body, timeout: timeout, tls: tls, target: TestTarget())
        request.download = download
        return request
    }
}

/// Runs `body` and returns the `NetworkError` it throws, or records an issue when it succeeds.
func networkError(_ body: () async throws -> Response, sourceLocation: SourceLocation = #_sourceLocation) async -> NetworkError? {
    do {
        let response = try await body()
        Issue.record("expected an error, got \(response)", sourceLocation: sourceLocation)
        return nil
    } catch let error as NetworkError {
        return error
    } catch {
        Issue.record("expected a NetworkError, got \(error)", sourceLocation: sourceLocation)
        return nil
    }
}
