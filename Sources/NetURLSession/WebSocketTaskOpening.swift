#if canImport(FoundationNetworking)
    import NetWebSocketCore
    import NetToolbox
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
        var urlRequest = URLRequest(url: WebSocketURLScheme.webSocket(request.url))  // the task refuses http(s) with an exception
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
    /// - Parameter challengeResponse: Called once the wait ended: the 401 an authentication
    ///   challenge carried (the delegate cancels the challenge, so the task itself may report only
    ///   a cancellation), or `nil`.
    static func open(
        _ task: any WebSocketTaskAPI, request: Request, handshake: WebSocketHandshake, configuration: WebSocketConfiguration,
        challengeResponse: () -> HTTPURLResponse? = { nil }
    ) async throws -> WebSocketOpening {
        task.maximumMessageSize = max(configuration.effectiveMaximumMessageSize, 1)
        // The pong handler may run twice (a dropped connection) or never (a cancelled task), so
        // the first of it, the deadline and cancellation ends the wait, once.
        let outcome = OnceOutcome()
        let deadline = Task { [timeout = request.timeout] in
            try await Task.sleep(for: timeout)
            outcome.resolve(NetworkError.timedOut)
        }
        defer { deadline.cancel() }
        let failure: (any Error)? = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                outcome.wait(continuation)
                task.resume()
                task.sendPing { error in outcome.resolve(error) }
            }
        } onCancel: {
            outcome.resolve(NetworkError.cancelled)
            task.cancel(with: .goingAway, reason: nil)
        }
        let challenged = challengeResponse()
        if Task.isCancelled {
            task.cancel(with: .goingAway, reason: nil)
            throw NetworkError.cancelled
        }
        if let failure = failure as? NetworkError, failure.code == .timedOut {
            task.cancel(with: .goingAway, reason: nil)
            throw failure
        }
        let http = task.response as? HTTPURLResponse ?? challenged
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

/// The end of a wait that several callbacks race to give (each may also come more than once):
/// only the first counts; one given before the waiter arrived is handed to it at once.
private final class OnceOutcome: Sendable {
    private enum State {
        case empty
        case waiting(CheckedContinuation<(any Error)?, Never>)
        case resolved((any Error)?)
        case done
    }

    private let state = Locked(State.empty)

    /// Waits with `continuation` (once).
    func wait(_ continuation: CheckedContinuation<(any Error)?, Never>) {
        let ready = state.withLock { state -> (any Error)?? in
            guard case .resolved(let error) = state else {
                state = .waiting(continuation)
                return .none
            }
            state = .done
            return .some(error)
        }
        if case .some(let error) = ready { continuation.resume(returning: error) }
    }

    /// Ends the wait with `error` (`nil`: success) unless it ended already.
    func resolve(_ error: (any Error)?) {
        let waiter = state.withLock { state -> CheckedContinuation<(any Error)?, Never>? in
            switch state {
            case .empty:
                state = .resolved(error)
                return nil
            case .waiting(let continuation):
                state = .done
                return continuation
            case .resolved, .done:
                return nil
            }
        }
        waiter?.resume(returning: error)
    }
}
