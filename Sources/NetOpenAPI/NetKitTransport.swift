#if OpenAPI
    import NetToolbox
    import Foundation
    import HTTPTypes
    import NetBase
    import NetCore
    import OpenAPIRuntime

    /// A swift-openapi-runtime `ClientTransport` that sends every operation of a generated client
    /// through a NetKit ``Provider``: its plugins (retry, HTTP cache, auth refresh, logging, HAR
    /// capture…), its transport (libcurl on Linux, with pinning and HTTP/2), cookies, deadlines and
    /// limits. Switching a generated client to NetKit is one line:
    ///
    /// ```swift
    /// let client = Client(serverURL: url, transport: NetKitTransport(plugins: [RetryPlugin(), CachePlugin(policy: .http)]))
    /// ```
    ///
    /// Each operation becomes an ``OpenAPIOperation`` target named by its `operationId`. Every
    /// status reaches the generated client as a response (a status the validation refuses
    /// included, with its body), so its typed `undocumented`/error cases work; transport failures
    /// throw ``NetworkError``. Bodies stream both ways: a request body of unknown length (or over
    /// ``inMemoryRequestBodyLimit``) is spooled to a temporary file and streamed from it, and with
    /// ``ResponseBodies/streamed`` the response body reaches the client as it arrives.
    public struct NetKitTransport: ClientTransport {
        /// How response bodies reach the generated client.
        public enum ResponseBodies: Sendable, Hashable {
            /// As they arrive (`provider.stream`): large and endless bodies (SSE, `/drip`) never
            /// sit whole in memory. Plugins decide on the response head.
            case streamed
            /// Whole, after every plugin ran on the complete response (`provider.request`): what a
            /// plugin that reads or stores bodies needs, such as `CachePlugin` storing responses.
            case buffered
        }

        /// Runs the operations.
        public let provider: Provider<OpenAPIOperation>
        /// How response bodies are delivered. Default ``ResponseBodies/streamed``.
        public var responseBodies: ResponseBodies
        /// Request bodies of known length up to this many bytes are sent from memory; others are
        /// spooled to a temporary file first. Default 1 MiB.
        public var inMemoryRequestBodyLimit: Int

        /// Creates a transport on `provider`. Leave its ``ProviderConfiguration/baseURL`` `nil`: the
        /// generated client's server URL is every operation's base.
        public init(provider: Provider<OpenAPIOperation>, responseBodies: ResponseBodies = .streamed, inMemoryRequestBodyLimit: Int = 1 << 20) {
            self.provider = provider
            self.responseBodies = responseBodies
            self.inMemoryRequestBodyLimit = inMemoryRequestBodyLimit
        }

        /// Creates a transport on a new provider with `transport`, `plugins` and `configuration`.
        public init(
            transport: any Transport = DefaultTransport.shared, plugins: [any Plugin] = [],
            configuration: ProviderConfiguration = ProviderConfiguration(), responseBodies: ResponseBodies = .streamed
        ) {
            self.init(provider: Provider(transport: transport, plugins: plugins, configuration: configuration), responseBodies: responseBodies)
        }

        /// Sends one operation through the provider.
        /// - Throws: ``NetworkError`` when no response came (timeouts, connection failures,
        ///   cancellation, a plugin's stop); an error reading the request body.
        public func send(_ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String) async throws -> (HTTPResponse, HTTPBody?) {
            let spool = try await RequestBodySpool.make(
                body, contentType: request.headerFields[.contentType] ?? "application/octet-stream", inMemoryLimit: inMemoryRequestBodyLimit)
            defer { spool.remove() }
            let target = Self.target(for: request, content: spool.content, baseURL: baseURL, operationID: operationID)
            switch responseBodies {
            case .buffered:
                let response: Response
                do {
                    response = try await provider.request(target)
                } catch .unacceptableStatus(let refused) {
                    response = refused
                }
                return (HTTPResponse(response), Self.hasBody(response) ? HTTPBody(response.data) : nil)
            case .streamed:
                // Retries happen before the head is handed over, so the spooled file may go after it.
                let stream = provider.stream(target)
                let head: Response
                do {
                    head = try await stream.head
                } catch .unacceptableStatus(let refused) {
                    return (HTTPResponse(refused), Self.hasBody(refused) ? HTTPBody(refused.data) : nil)
                }
                guard Self.hasBody(head) else { return (HTTPResponse(head), nil) }
                return (HTTPResponse(head), HTTPBody(stream, length: Self.length(of: head), iterationBehavior: .single))
            }
        }

        /// The target of one operation: the path's query goes onto the base URL as the client
        /// encoded it, so NetKit's parameter encoding never re-encodes it.
        static func target(for request: HTTPRequest, content: RequestContent, baseURL: URL, operationID: String) -> OpenAPIOperation {
            var path = request.path ?? "/"
            var base = baseURL
            if let mark = path.firstIndex(of: "?") {
                let query = path[path.index(after: mark)...]
                path = String(path[..<mark])
                if !query.isEmpty, let withQuery = URL(string: baseURL.absoluteString + "?" + query) { base = withQuery }
            }
            var headers: [String: String] = [:]
            for field in HTTPHeaders(request.headerFields) { headers[field.name] = field.value }
            return OpenAPIOperation(
                operationID: operationID, baseURL: base, path: path, method: HTTPMethod(request.method), headers: headers, content: content)
        }

        /// Whether a response may have a body (not for `HEAD`, `1xx`, `204`, `304`).
        static func hasBody(_ response: Response) -> Bool {
            !StatusRules.hasNoBody(statusCode: response.statusCode, method: response.request.method.rawValue)
        }

        /// The body's length when the server declared it and no content coding changes it.
        static func length(of head: Response) -> HTTPBody.Length {
            guard head.headers["Content-Encoding"] == nil, let declared = head.headers["Content-Length"].flatMap(Int64.init) else { return .unknown }
            return .known(declared)
        }
    }
#endif
