import Foundation

/// The canned answer ``StubTransport`` gives for a target.
public struct SampleResponse: Sendable {
    /// The status code to answer with.
    public var statusCode: Int
    /// The response headers.
    public var headers: HTTPHeaders
    /// The response body.
    public var data: Data
    /// When set, the stub fails with this error instead of answering.
    package var error: NetworkError?
    /// An error of another type the stub fails with, mapped as a real transport maps it when the
    /// request is made (see ``failure(_:)-(Error)``).
    package var failureCause: (any Error)?

    /// Creates a sample answer.
    public init(statusCode: Int = 200, headers: HTTPHeaders = [:], data: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.data = data
        self.error = nil
    }

    /// A sample that makes the stub fail with `error`, for testing error paths.
    public static func failure(_ error: NetworkError) -> SampleResponse {
        var sample = SampleResponse(statusCode: 0)
        sample.error = error
        return sample
    }

    /// A sample that makes the stub fail as a transport would on `error`: a `URLError` becomes the
    /// ``NetworkError`` URLSession's would (`.notConnectedToInternet` is
    /// ``NetworkError/connectionFailed(host:reason:underlying:)``, `.timedOut` is
    /// ``NetworkError/timedOut``), any other error ``NetworkError/transport(reason:underlying:)``,
    /// and ``NetworkError/underlyingError`` returns `error` itself wherever the case carries a cause
    /// (all but `.timedOut`, `.cancelled` and `.redirectRefused`). Moya's `.networkError` stub.
    ///
    /// ```swift
    /// var sampleResponse: SampleResponse { .failure(URLError(.notConnectedToInternet)) }
    /// ```
    public static func failure(_ error: any Error) -> SampleResponse {
        if let error = error as? NetworkError { return failure(error) }
        var sample = SampleResponse(statusCode: 0)
        sample.failureCause = error
        return sample
    }

    /// A 200 answer whose body is `json` (UTF-8) with a JSON content type.
    public static func json(_ json: String, statusCode: Int = 200) -> SampleResponse {
        SampleResponse(statusCode: statusCode, headers: ["Content-Type": "application/json"], data: Data(json.utf8))
    }
}
