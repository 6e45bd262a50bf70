#if canImport(FoundationNetworking)
    import NetWebSocketCore
    import FoundationNetworking
#endif
import Foundation
import Testing

@testable import NetBase
@testable import NetCore
@testable import NetURLSession

/// The URLSession WebSocket adapter (`URLSessionWebSocketTask` behind `WebSocketTaskAPI`) on a
/// fake task: what runs on Apple platforms, tested here without one.
@Suite("URLSession WebSocket adapter")
struct WebSocketTaskAdapterTests {
    static let handshake = WebSocketHandshake(subprotocols: ["v1", "v2"])

    static func request(timeout: Duration = .seconds(60)) -> Request {
        var headers: HTTPHeaders = ["Authorization": "Bearer t"]
        headers = handshake.requestHeaders(over: headers)
        return Request(
            url: URL(string: "https://chat.example.com/room")!, headers: headers, timeout: timeout, target: PlaceholderTarget())
    }

    static func open(
        _ task: WebSocketTaskFake, maximumMessageSize: Int = 1 << 20, timeout: Duration = .seconds(60),
        closeTimeout: Duration = .seconds(5)
    ) async throws -> WebSocketOpening {
        try await WebSocketTaskOpening.open(
            task, request: request(timeout: timeout), handshake: handshake,
            configuration: WebSocketConfiguration(maximumMessageSize: maximumMessageSize, closeTimeout: closeTimeout))
    }

    static func connection(_ opening: WebSocketOpening) throws -> any InboxBackedWebSocketConnection {
        guard case .upgraded(_, _, let connection) = opening else { throw NetworkError.invalidResponse(reason: "not upgraded") }
        return connection
    }

    @Test("The handshake request keeps the request's headers and leaves the upgrade headers to the task")
    func urlRequestLeavesUpgradeHeadersToTheTask() {
        let urlRequest = WebSocketTaskOpening.urlRequest(for: Self.request())
        #expect(urlRequest.value(forHTTPHeaderField: "Authorization") == "Bearer t")
        #expect(urlRequest.value(forHTTPHeaderField: "Sec-WebSocket-Protocol") == "v1, v2")
        #expect(urlRequest.value(forHTTPHeaderField: "Sec-WebSocket-Key") == nil)
        #expect(urlRequest.value(forHTTPHeaderField: "Upgrade") == nil)
    }

    @Test("The handshake request uses the ws and wss schemes a WebSocket task requires")
    func urlRequestUsesWebSocketSchemes() {
        #expect(WebSocketTaskOpening.urlRequest(for: Self.request()).url?.absoluteString == "wss://chat.example.com/room")
        let plain = Request(url: URL(string: "http://127.0.0.1:8080/echo?x=1")!, target: PlaceholderTarget())
        #expect(WebSocketTaskOpening.urlRequest(for: plain).url?.absoluteString == "ws://127.0.0.1:8080/echo?x=1")
    }

    @Test("A 101 opens a connection with the chosen subprotocol, the task resumed and limited to the message size")
    func upgradeOpens() async throws {
        let task = WebSocketTaskFake(headers: ["Sec-WebSocket-Protocol": "v2"])
        let opening = try await Self.open(task, maximumMessageSize: 4096)
        guard case .upgraded(let response, let subprotocol, _) = opening else { Issue.record("not upgraded"); return }
        #expect(response.statusCode == 101)
        #expect(subprotocol == "v2")
        #expect(task.wasResumed)
        #expect(task.maximumMessageSize == 4096)
    }

    @Test("Another answer (a 401) is handed to the pipeline, and the task is cancelled")
    func otherStatusIsAnswered() async throws {
        let task = WebSocketTaskFake(status: 401, openError: URLError(.badServerResponse))
        let opening = try await Self.open(task)
        guard case .answered(let response) = opening else { Issue.record("upgraded"); return }
        #expect(response.statusCode == 401)
        #expect(task.cancelledWith != nil)
    }

    @Test("A 401 whose auth challenge the delegate cancelled is handed to the pipeline, not reported as cancelled")
    func cancelledChallengeIsAnswered() async throws {
        let task = WebSocketTaskFake(status: nil, openError: URLError(.cancelled))
        let challenge = HTTPURLResponse(
            url: URL(string: "https://chat.example.com/room")!, statusCode: 401, httpVersion: "HTTP/1.1",
            headerFields: ["WWW-Authenticate": "Basic realm=\"chat\""])
        let opening = try await WebSocketTaskOpening.open(
            task, request: Self.request(), handshake: Self.handshake, configuration: WebSocketConfiguration(),
            challengeResponse: { challenge })
        guard case .answered(let response) = opening else { Issue.record("not answered"); return }
        #expect(response.statusCode == 401)
        #expect(response.headers["WWW-Authenticate"] == "Basic realm=\"chat\"")
    }

    @Test("A task that fails without an answer throws the mapped NetworkError")
    func failureWithoutAnswerThrows() async throws {
        let task = WebSocketTaskFake(status: nil, openError: URLError(.cannotConnectToHost))
        await #expect(throws: NetworkError.self) { _ = try await Self.open(task) }
    }

    @Test("A subprotocol that was not offered fails the handshake with 1002")
    func unofferedSubprotocolFails() async throws {
        let task = WebSocketTaskFake(headers: ["Sec-WebSocket-Protocol": "v9"])
        let error = await #expect(throws: NetworkError.self) { _ = try await Self.open(task) }
        #expect(error?.description.contains("'v9', which was not offered") == true)
        #expect(task.cancelledWith?.code == .protocolError)
    }

    @Test("Messages go both ways as the task's string and data messages")
    func messagesBothWays() async throws {
        let task = WebSocketTaskFake()
        let connection = try Self.connection(try await Self.open(task))
        try await connection.send(.text("hi"))
        try await connection.send(.binary(Data([1, 2])))
        #expect(task.sentMessages == [.text("hi"), .binary(Data([1, 2]))])
        task.push(.string("hello"))
        task.push(.data(Data([3])))
        #expect(try await connection.inbox.next() == .text("hello"))
        #expect(try await connection.inbox.next() == .binary(Data([3])))
        try await connection.ping()
    }

    @Test("The peer's close ends the messages with its code and reason")
    func peerCloseEnds() async throws {
        let task = WebSocketTaskFake()
        let connection = try Self.connection(try await Self.open(task))
        task.push(.string("last"))
        task.end(.goingAway, reason: "restart")
        #expect(try await connection.inbox.next() == .text("last"))
        #expect(try await connection.inbox.next() == nil)
        #expect(connection.closeCode == .goingAway)
        #expect(connection.closeReason == "restart")
        await #expect(throws: NetworkError.self) { try await connection.send(.text("late")) }
    }

    @Test("A connection that drops without a close frame fails the messages, and the close code is 1006")
    func dropFails() async throws {
        let task = WebSocketTaskFake()
        let connection = try Self.connection(try await Self.open(task))
        task.end(.invalid)
        let error = await #expect(throws: NetworkError.self) { _ = try await connection.inbox.next() }
        #expect(error?.code == .connectionLost)
        #expect(connection.closeCode == .abnormalClosure)
    }

    @Test("A message past the maximum size (the task's EMSGSIZE) fails the messages with responseTooLarge and 1009")
    func tooLargeMessage() async throws {
        let task = WebSocketTaskFake()
        let connection = try Self.connection(try await Self.open(task, maximumMessageSize: 1000))
        task.end(.invalid, error: POSIXError(.EMSGSIZE))
        let error = await #expect(throws: NetworkError.self) { _ = try await connection.inbox.next() }
        #expect(error?.code == .responseTooLarge)
        #expect(connection.closeCode == .messageTooBig)
    }

    @Test("close sends the code and reason through the task and ends the messages")
    func closeCancelsWithCode() async throws {
        let task = WebSocketTaskFake()
        let connection = try Self.connection(try await Self.open(task))
        await connection.close(.normalClosure, reason: "bye")
        #expect(task.cancelledWith?.code == .normalClosure)
        #expect(task.cancelledWith?.reason == Data("bye".utf8))
        #expect(try await connection.inbox.next() == nil)
        #expect(connection.closeCode == .normalClosure)
        await #expect(throws: NetworkError.self) { try await connection.ping() }
    }

    @Test("A full inbox stops receiving from the task until the reader makes room")
    func backPressure() async throws {
        let task = WebSocketTaskFake()
        let connection = try Self.connection(try await Self.open(task, maximumMessageSize: 256))
        #expect(task.isReceiving)
        var pushed = 0
        // Capped, so a regression fails here instead of looping forever.
        while task.isReceiving, pushed < 100 {
            task.push(.data(Data(count: 100)))
            pushed += 1
        }
        #expect(pushed <= 3, "reading stops once the inbox holds its capacity")
        _ = try await connection.inbox.next()
        #expect(task.isReceiving, "a read that made room asks the task for the next message")
    }

    @Test("close reports the peer's answering close code")
    func closeReportsPeerCode() async throws {
        let task = WebSocketTaskFake()
        let connection = try Self.connection(try await Self.open(task))
        await connection.close(.goingAway, reason: "")
        #expect(connection.closeCode == .goingAway)
    }

    @Test("close without the peer's close frame reports 1006, not the code sent")
    func closeWithoutPeerCloseIs1006() async throws {
        let task = WebSocketTaskFake(echoesClose: false)
        let connection = try Self.connection(try await Self.open(task))
        await connection.close(.normalClosure, reason: "bye")
        #expect(connection.closeCode == .abnormalClosure)
        #expect(try await connection.inbox.next() == nil)
    }

    @Test("close waits at most the close timeout when the task never reports the end")
    func closeIsBoundedByTheCloseTimeout() async throws {
        let task = WebSocketTaskFake(echoesClose: false)
        let connection = try Self.connection(try await Self.open(task, maximumMessageSize: 256, closeTimeout: .milliseconds(50)))
        // A full inbox: no `receive` is pending, so nothing reports the end.
        for _ in 0..<10 where task.isReceiving { task.push(.data(Data(count: 200))) }
        #expect(!task.isReceiving)
        await connection.close(.normalClosure, reason: "")
        #expect(connection.closeCode == .abnormalClosure)
    }

    @Test("A close reason is cut to 123 bytes between characters, so it stays valid UTF-8")
    func closeReasonIsCutBetweenCharacters() async throws {
        let task = WebSocketTaskFake()
        let connection = try Self.connection(try await Self.open(task))
        await connection.close(.normalClosure, reason: String(repeating: "é", count: 100))
        let sent = try #require(task.cancelledWith?.reason)
        #expect(sent.count == 122)
        #expect(String(data: sent, encoding: .utf8) == String(repeating: "é", count: 61))
    }

    @Test("A pong handler that runs twice opens the connection once")
    func doublePongOpensOnce() async throws {
        let task = WebSocketTaskFake(pongs: .twice)
        _ = try Self.connection(try await Self.open(task))
    }

    @Test("A handshake whose pong never comes fails with timedOut at the request's timeout, and the task is cancelled")
    func openIsBoundedByTheTimeout() async throws {
        let task = WebSocketTaskFake(pongs: .never)
        let error = await #expect(throws: NetworkError.self) { _ = try await Self.open(task, timeout: .milliseconds(50)) }
        #expect(error?.code == .timedOut)
        #expect(task.cancelledWith != nil)
    }

    @Test("Cancelling an open whose pong never comes ends it with cancelled")
    func cancelledOpenEnds() async throws {
        let task = WebSocketTaskFake(pongs: .never)
        let opening = Task { try await Self.open(task) }
        opening.cancel()
        let error = await #expect(throws: NetworkError.self) { _ = try await opening.value }
        #expect(error?.code == .cancelled)
    }

    @Test("Sends and pings still waiting when the connection closes fail instead of hanging")
    func waitingSendsAndPingsFailOnClose() async throws {
        let task = WebSocketTaskFake()
        let connection = try Self.connection(try await Self.open(task))
        task.behave(pongs: .never, completesSends: false)
        let send = Task { try await connection.send(.text("stuck")) }
        let ping = Task { try await connection.ping() }
        while task.sentMessages.isEmpty || task.pingCount < 2 { await Task.yield() }
        await connection.close(.normalClosure, reason: "")
        await #expect(throws: NetworkError.self) { try await send.value }
        await #expect(throws: NetworkError.self) { try await ping.value }
    }

    @Test("A ping waiting when the connection is abandoned fails")
    func waitingPingFailsOnAbandon() async throws {
        let task = WebSocketTaskFake()
        let connection = try Self.connection(try await Self.open(task))
        task.behave(pongs: .never)
        let ping = Task { try await connection.ping() }
        while task.pingCount < 2 { await Task.yield() }
        connection.abandon()
        await #expect(throws: NetworkError.self) { try await ping.value }
        #expect(task.cancelledWith?.code == .goingAway)
    }

    #if canImport(FoundationNetworking)
        @Test("On Linux, URLSessionTransport answers a WebSocket with the capability error before anything is sent")
        func linuxAnswersCapabilityError() async throws {
            struct Chat: TargetType {
                var baseURL: URL { URL(string: "ws://127.0.0.1:9")! }
                var path: String { "/" }
                var method: HTTPMethod { .get }
                var content: RequestContent { .plain }
            }
            let error = await #expect(throws: NetworkError.self) {
                _ = try await Provider<Chat>(transport: URLSessionTransport()).webSocket(Chat())
            }
            #expect(error?.description.contains("URLSessionWebSocketTask needs a libcurl built with WebSocket support") == true)
        }
    #endif
}
