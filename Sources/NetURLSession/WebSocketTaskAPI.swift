#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation

/// The part of `URLSessionWebSocketTask` that NetKit's adapter uses, so the adapter can run on
/// a fake in tests (FoundationNetworking declares the task on Linux, but its libcurl has no
/// WebSocket support, so a real one fails there).
protocol WebSocketTaskAPI: AnyObject, Sendable {
    /// Starts the handshake.
    func resume()
    /// Sends a whole message.
    func send(_ message: URLSessionWebSocketTask.Message, completionHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Reads the next whole message.
    func receive(completionHandler: @escaping @Sendable (Result<URLSessionWebSocketTask.Message, any Error>) -> Void)
    /// Sends a ping; the handler runs when its pong arrives, or with the error that ended the wait.
    func sendPing(pongReceiveHandler: @escaping @Sendable ((any Error)?) -> Void)
    /// Sends a close frame with `closeCode` and `reason` and ends the task.
    func cancel(with closeCode: URLSessionWebSocketTask.CloseCode, reason: Data?)
    /// The peer's close code, `.invalid` while none arrived.
    var closeCode: URLSessionWebSocketTask.CloseCode { get }
    /// The peer's close reason.
    var closeReason: Data? { get }
    /// The largest message the task reads.
    var maximumMessageSize: Int { get set }
    /// The handshake's answer, once it came.
    var response: URLResponse? { get }
}

extension URLSessionWebSocketTask: WebSocketTaskAPI {}
