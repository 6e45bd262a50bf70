#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// Opens a WebSocket with a `URLSessionWebSocketTask` (through ``WebSocketTaskAPI``): the task
/// does the handshake itself (its own key and accept check); the first pong says it succeeded.
enum WebSocketTaskOpening {
    /// Headers of the handshake request that the task writes itself.
    static let taskOwnedHeaders: Set<String> = [
        "upgrade", "connection", "sec-websocket-key", "sec-websocket-version", "sec-websocket-extensions",
    ]

    /// The `URLRequest` for `request`'s handshake: its URL, method, headers (without those the
    /// task writes) and its timeout.
    static func urlRequest(for request: Request) -> URLRequest {
        var urlRequest = URLRequest(url: request.url)
        urlRequest.httpMethod = "GET"
        for field in request.headers where !taskOwnedHeaders.contains(field.name.lowercased()) {
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        urlRequest.timeoutInterval = max(1, request.timeout.seconds)
        return urlRequest
    }

    /// Starts `task` and waits for its handshake.
    /// - Returns: The open connection after a 101, or the server's other answer (a 401 the
    ///   pipeline may retry).
    /// - Throws: ``NetworkError``: the task's failure, ``NetworkError/cancelled``, or a
    ///   subprotocol that was not offered.
    static func open(
        _ task: any WebSocketTaskAPI, request: Request, handshake: WebSocketHandshake, configuration: WebSocketConfiguration
    ) async throws -> WebSocketOpening {
        task.maximumMessageSize = max(configuration.effectiveMaximumMessageSize, 1)
        let failure: (any Error)? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                task.resume()
                task.sendPing { error in continuation.resume(returning: error) }
            }
        } onCancel: {
            task.cancel(with: .goingAway, reason: nil)
        }
        if Task.isCancelled {
            task.cancel(with: .goingAway, reason: nil)
            throw NetworkError.cancelled
        }
        let http = task.response as? HTTPURLResponse
        let headers = http.map(Self.headers) ?? HTTPHeaders()
        if let http, http.statusCode != 101 {
            task.cancel(with: .goingAway, reason: nil)
            return .answered(Response(statusCode: http.statusCode, headers: headers, data: Data(), request: request))
        }
        if let failure {
            task.cancel(with: .goingAway, reason: nil)
            throw URLErrorMapping.map(failure, host: request.host)
        }
        guard let http else {
            task.cancel(with: .goingAway, reason: nil)
            throw NetworkError.invalidResponse(reason: "the WebSocket task opened without a handshake response")
        }
        var subprotocol: String?
        if let chosen = headers["Sec-WebSocket-Protocol"]?.trimmingCharacters(in: .whitespaces), !chosen.isEmpty {
            guard handshake.subprotocols.contains(chosen) else {
                task.cancel(with: .protocolError, reason: nil)
                throw NetworkError.invalidResponse(
                    reason: "the server chose the WebSocket subprotocol '\(chosen)', which was not offered")
            }
            subprotocol = chosen
        }
        let response = Response(statusCode: http.statusCode, headers: headers, data: Data(), request: request)
        let connection = URLSessionWebSocketConnection(task: task, configuration: configuration)
        return .upgraded(response, subprotocol: subprotocol, connection: connection)
    }

    private static func headers(_ response: HTTPURLResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in response.allHeaderFields {
            headers[String(describing: name)] = String(describing: value)
        }
        return headers
    }
}
