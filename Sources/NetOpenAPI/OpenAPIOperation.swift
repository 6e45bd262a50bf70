#if OpenAPI
    import Foundation
    import NetCore

    /// One operation of a generated OpenAPI client, as the ``TargetType`` its NetKit provider runs.
    ///
    /// Plugins see it like any target: ``operationID`` is its name in logs, errors and metrics
    /// (`OpenAPIOperation.listPets`), ``CacheableTarget``-style rules can switch on it. Made by
    /// ``NetKitTransport``.
    public struct OpenAPIOperation: TargetType, CustomStringConvertible {
        /// The operation's `operationId` from the OpenAPI document.
        public let operationID: String
        /// The server URL the generated client was made with, with the request's query (already
        /// percent-encoded, as the client wrote it) attached.
        public let baseURL: URL
        /// The request's path (percent-encoded, as the client wrote it).
        public let path: String
        /// The request's method.
        public let method: HTTPMethod
        /// The request's header fields (repeated names joined with `", "`).
        public let headers: [String: String]
        /// The request's body: `.plain`, in-memory data, or a file the body was spooled to.
        public let content: RequestContent

        /// Creates an operation target (``NetKitTransport`` does this for you).
        public init(operationID: String, baseURL: URL, path: String, method: HTTPMethod, headers: [String: String], content: RequestContent) {
            self.operationID = operationID
            self.baseURL = baseURL
            self.path = path
            self.method = method
            self.headers = headers
            self.content = content
        }

        /// The operation id: what errors and logs name it by.
        public var description: String { operationID }
    }
#endif
