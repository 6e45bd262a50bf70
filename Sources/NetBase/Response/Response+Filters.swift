import Foundation

extension Response {
    /// Creates a response with only a status code and a body, for tests: its ``request`` is a
    /// placeholder `GET http://localhost/` (Moya's `Response(statusCode:data:)`).
    ///
    /// ```swift
    /// let response = Response(statusCode: 404, data: Data(#"{"error":"gone"}"#.utf8))
    /// #expect(throws: NetworkError.self) { try response.filterSuccessfulStatusCodes() }
    /// ```
    public init(statusCode: Int, data: Data) {
        self.init(statusCode: statusCode, data: data, request: Request(url: PlaceholderTarget.url, target: PlaceholderTarget()), source: .stub)
    }

    /// This response when its status code is in `statusCodes`.
    /// - Throws: ``NetworkError/unacceptableStatus(_:)`` with this response (its body kept) otherwise.
    public func filter<Codes: RangeExpression>(statusCodes: Codes) throws(NetworkError) -> Response where Codes.Bound == Int {
        guard statusCodes.contains(statusCode) else { throw .unacceptableStatus(self) }
        return self
    }

    /// This response when its status code is `statusCode`.
    /// - Throws: ``NetworkError/unacceptableStatus(_:)`` with this response otherwise.
    public func filter(statusCode: Int) throws(NetworkError) -> Response {
        try filter(statusCodes: statusCode...statusCode)
    }

    /// This response when its status code is 2xx.
    /// - Throws: ``NetworkError/unacceptableStatus(_:)`` with this response otherwise.
    public func filterSuccessfulStatusCodes() throws(NetworkError) -> Response {
        try filter(statusCodes: 200...299)
    }

    /// This response when its status code is 2xx or 3xx.
    /// - Throws: ``NetworkError/unacceptableStatus(_:)`` with this response otherwise.
    public func filterSuccessfulStatusAndRedirectCodes() throws(NetworkError) -> Response {
        try filter(statusCodes: 200...399)
    }
}

/// The target of a response made from a status code and a body alone.
struct PlaceholderTarget: TargetType, CustomStringConvertible {
    static let url = URL(string: "http://localhost/")!
    var baseURL: URL { Self.url }
    var path: String { "" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .plain }
    var description: String { "placeholder" }
}
