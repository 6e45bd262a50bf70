#if OpenAPI
    import Foundation
    import HTTPTypes
    import NetCore
    import NetOpenAPI
    import NetPlugins
    import NetTestSupport
    import OpenAPIRuntime
    import Testing

    /// Trait `OpenAPI`: `NetKitTransport` runs swift-openapi-runtime operations through a provider,
    /// against a live httpbin, on both transports.
    @Suite(.liveServers)
    struct OpenAPITraitTests {
        struct Echo: Decodable {
            let args: [String: String]
            let headers: [String: String]
            let data: String?
        }

        private func send(
            _ transport: NetKitTransport, _ method: HTTPRequest.Method, _ path: String, body: HTTPBody? = nil, headers: HTTPFields = [:]
        ) async throws -> (HTTPResponse, Data) {
            let url = try requireHTTPBin()
            let request = HTTPRequest(method: method, scheme: nil, authority: nil, path: path, headerFields: headers)
            let (response, responseBody) = try await transport.send(request, body: body, baseURL: url, operationID: "op")
            guard let responseBody else { return (response, Data()) }
            return (response, try await Data(collecting: responseBody, upTo: 1 << 24))
        }

        @Test("A GET with an encoded query reaches httpbin as the client wrote it, and the headers go both ways", arguments: TransportKind.allCases)
        func getWithQuery(kind: TransportKind) async throws {
            let transport = NetKitTransport(transport: kind.make())
            let (response, data) = try await send(transport, .get, "/get?name=caf%C3%A9%20au%20lait&n=1", headers: [.accept: "application/json"])
            #expect(response.status == .ok)
            #expect(response.headerFields[.contentType] == "application/json")
            let echo = try JSONDecoder().decode(Echo.self, from: data)
            #expect(echo.args == ["name": "café au lait", "n": "1"])
            #expect(echo.headers["Accept"] == "application/json")
        }

        @Test("A request body of unknown length is streamed from a spooled file and arrives whole", arguments: TransportKind.allCases)
        func streamedRequestBody(kind: TransportKind) async throws {
            let chunks = (0..<64).map { index in ArraySlice(Array(repeating: UInt8(ascii: "a") + UInt8(index % 26), count: 4096)) }
            let (stream, continuation) = AsyncStream<ArraySlice<UInt8>>.makeStream()
            for chunk in chunks { continuation.yield(chunk) }
            continuation.finish()
            let transport = NetKitTransport(transport: kind.make())
            let (response, data) = try await send(
                transport, .post, "/post", body: HTTPBody(stream, length: .unknown), headers: [.contentType: "text/plain"])
            #expect(response.status == .ok)
            let echo = try JSONDecoder().decode(Echo.self, from: data)
            #expect(echo.data == String(decoding: chunks.joined(), as: UTF8.self))
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
            #expect(!leftovers.contains { $0.hasPrefix("netkit-openapi-body-") })
        }

        @Test("A failing status is a response for the generated client, after RetryPlugin's retries ran", arguments: TransportKind.allCases)
        func failingStatusAfterRetries(kind: TransportKind) async throws {
            let log = EventLog()
            var configuration = ProviderConfiguration()
            configuration.eventObservers = [log]
            let retry = RetryPlugin(maxRetries: 1, baseDelay: .milliseconds(1), jitter: false, retryableStatuses: [503])
            let transport = NetKitTransport(transport: kind.make(), plugins: [retry], configuration: configuration)
            let (response, _) = try await send(transport, .get, "/status/503")
            #expect(response.status.code == 503)
            #expect(log.lines.filter { $0.hasSuffix(":attempt") }.count == 2)
            #expect(log.all.allSatisfy { "\($0.request.target)" == "op" })
        }

        @Test("A streamed response body reaches the client chunk by chunk, with its declared length", arguments: TransportKind.allCases)
        func streamedResponseBody(kind: TransportKind) async throws {
            let url = try requireHTTPBin()
            let transport = NetKitTransport(transport: kind.make())
            let request = HTTPRequest(method: .get, scheme: nil, authority: nil, path: "/drip?numbytes=5&duration=0.2&delay=0")
            let (response, body) = try await transport.send(request, body: nil, baseURL: url, operationID: "drip")
            #expect(response.status == .ok)
            let streamed = try #require(body)
            #expect(streamed.length == .known(5))
            var received: [UInt8] = []
            for try await chunk in streamed { received += chunk }
            #expect(received == Array(repeating: UInt8(ascii: "*"), count: 5))
        }

        @Test("With buffered bodies, CachePlugin answers a repeated operation from its cache", arguments: TransportKind.allCases)
        func cacheHit(kind: TransportKind) async throws {
            let log = EventLog()
            var configuration = ProviderConfiguration()
            configuration.eventObservers = [log]
            let transport = NetKitTransport(
                transport: kind.make(), plugins: [CachePlugin(storage: .memory(), policy: .http)], configuration: configuration,
                responseBodies: .buffered)
            let (first, firstBody) = try await send(transport, .get, "/cache/60")
            let (second, secondBody) = try await send(transport, .get, "/cache/60")
            #expect(first.status == .ok && second.status == .ok)
            #expect(firstBody == secondBody && !secondBody.isEmpty)
            #expect(log.lines.filter { $0.contains("cache") } == ["1:cache miss", "1:cache hit"])
        }

        @Test("HTTPFields and HTTPHeaders convert both ways; repeated names are joined")
        func conversions() {
            var fields = HTTPFields()
            fields.append(HTTPField(name: .accept, value: "a"))
            fields.append(HTTPField(name: .accept, value: "b"))
            fields[.contentType] = "text/plain"
            let headers = HTTPHeaders(fields)
            #expect(headers["accept"] == "a, b" && headers["Content-Type"] == "text/plain")
            #expect(HTTPFields(headers)[.accept] == "a, b")
            let request = Request(method: .post, url: URL(string: "https://example.com:8443/a%20b?q=1")!, headers: headers, target: AnyTarget(Bin.headers))
            let head = HTTPRequest(request)
            #expect(head.method == .post && head.scheme == "https" && head.authority == "example.com:8443" && head.path == "/a%20b?q=1")
            let response = Response(statusCode: 418, headers: ["X-A": "1"], request: request)
            #expect(HTTPResponse(response).status.code == 418 && HTTPResponse(response).headerFields[HTTPField.Name("X-A")!] == "1")
            #expect(Response(HTTPResponse(response), request: request).statusCode == 418)
        }
    }
#endif
