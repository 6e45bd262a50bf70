import NetCore

extension LoggerPlugin {
    /// Writes the line logged when an attempt is sent and the line logged when it ends (Moya's
    /// `NetworkLoggerPlugin.Configuration.Formatter`).
    ///
    /// ```swift
    /// let formatter = LoggerPlugin.Formatter(
    ///     request: { request in "[api] \(request.method.rawValue) \(request.url.path) #\(request.attempt)" },
    ///     response: { result, request in
    ///         switch result {
    ///         case .success(let response): "[api] \(response.statusCode) \(request.url.path)"
    ///         case .failure(let error): "[api] failed \(request.url.path): \(error.code)"
    ///         }
    ///     })
    /// let logger = LoggerPlugin(formatter: formatter)
    /// ```
    ///
    /// A closure left `nil` keeps the built-in line. Verbose details (headers, bodies) and the
    /// cURL command still follow the line.
    ///
    /// Redaction applies whatever a closure does, in two layers:
    /// - The closures receive redacted copies: the URL without userinfo and with secret query
    ///   values replaced, redacted headers, and in-memory bodies redacted as in verbose mode, for
    ///   the request, the response, and the response an error carries.
    /// - Their output is scrubbed again: the request's raw URL becomes its redacted form and
    ///   every secret value the request and response carry under redacted names is replaced.
    ///
    /// A custom closure costs about what verbose mode does per line (the copies are redacted for
    /// it); the built-in lines keep the compact mode's cost.
    public struct Formatter: Sendable {
        /// Writes the line for an attempt that is being sent; `nil` for the built-in line
        /// (`→ GET https://… attempt=1`).
        public var request: (@Sendable (Request) -> String)?
        /// Writes the line for how an attempt ended: its response, or its error (with the
        /// attempt's request); `nil` for the built-in line (`← 200 GET https://… 12.3 ms …`).
        public var response: (@Sendable (Result<Response, NetworkError>, Request) -> String)?

        /// Creates a formatter; each closure left `nil` keeps the built-in line.
        public init(
            request: (@Sendable (Request) -> String)? = nil,
            response: (@Sendable (Result<Response, NetworkError>, Request) -> String)? = nil
        ) {
            self.request = request
            self.response = response
        }

        /// The built-in lines.
        public static let `default` = Formatter()
    }
}
