@testable import NetWebSocketCore
import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

@testable import NetBase

/// Observing a WebSocket: the inbox's tap and the observers plugins hand the pipeline.
@Suite("WebSocket observers")
struct WebSocketObserverTests {
    final class Log: WebSocketObserver {
        let events = Locked<[String]>([])
        func webSocketSent(_ message: WebSocket.Message, at date: Date) { events.withLock { $0.append("sent \(message)") } }
        func webSocketReceived(_ message: WebSocket.Message, at date: Date) { events.withLock { $0.append("received \(message)") } }
        func webSocketClosed(code: WebSocket.CloseCode?, reason: String?, error: NetworkError?, at date: Date) {
            events.withLock { $0.append("closed \(code?.rawValue ?? 0) \(error == nil ? "normally" : "with an error")") }
        }
    }

    struct Watching: WebSocketObservingPlugin {
        let log: Log
        let opened = Locked<[String]>([])
        func webSocketOpened(_ request: Request, response: Response, subprotocol: String?) -> (any WebSocketObserver)? {
            opened.withLock { $0.append("\(response.statusCode) \(request.url.absoluteString)") }
            return log
        }
    }

    @Test("A tap sees the messages that waited before it, then each arrival and the end, in order")
    func tapSeesBacklogThenArrivals() async throws {
        let inbox = WebSocketInbox(capacity: 1024)
        inbox.yield(.text("early"))
        let seen = Locked<[String]>([])
        inbox.tap { event in
            switch event {
            case .message(let message, _): seen.withLock { $0.append("\(message)") }
            case .end(let error, _): seen.withLock { $0.append(error == nil ? "end" : "failed") }
            }
        }
        inbox.yield(.binary(Data([1])))
        inbox.finish()
        inbox.yield(.text("after the end"))
        #expect(seen.withLock { $0 } == ["\(WebSocket.Message.text("early"))", "\(WebSocket.Message.binary(Data([1])))", "end"])
        #expect(try await inbox.next() == .text("early"))
    }

    @Test("A tap set on an empty inbox sees every later arrival and the end")
    func tapOnEmptyInbox() {
        let inbox = WebSocketInbox(capacity: 1024)
        let seen = Locked<[String]>([])
        inbox.tap { event in
            switch event {
            case .message(let message, _): seen.withLock { $0.append("\(message)") }
            case .end(let error, _): seen.withLock { $0.append(error == nil ? "end" : "failed") }
            }
        }
        inbox.yield(.text("later"))
        inbox.finish(throwing: .connectionLost(reason: "gone"))
        #expect(seen.withLock { $0 } == ["\(WebSocket.Message.text("later"))", "failed"])
    }

    @Test("A plugin that observes WebSockets gets each send, arrival and the close of the connections a provider opens")
    func pluginObservesConnection() async throws {
        let log = Log()
        let plugin = Watching(log: log)
        let echo = WebSocketStubTransport { peer in
            while let message = try await peer.receive() { peer.send(message) }
        }
        let target = TestTarget(name: "chat", baseURL: URL(string: "ws://chat.example.com")!, path: "room")
        let socket = try await Provider<TestTarget>(transport: echo, plugins: [plugin]).webSocket(target)
        try await socket.send(.text("ping"))
        var iterator = socket.messages.makeAsyncIterator()
        #expect(try await iterator.next() == .text("ping"))
        await socket.close()
        #expect(plugin.opened.withLock { $0 } == ["101 http://chat.example.com/room"])
        #expect(log.events.withLock { $0 } == ["sent \(WebSocket.Message.text("ping"))", "received \(WebSocket.Message.text("ping"))", "closed 1000 normally"])
    }

    /// A connection that only has an inbox.
    final class Bare: InboxBackedWebSocketConnection {
        let inbox = WebSocketInbox(capacity: 1024)
        func send(_ message: WebSocket.Message) async throws {}
        func ping() async throws {}
        func close(_ code: WebSocket.CloseCode, reason: String) async { inbox.finish() }
        func abandon() { inbox.finish() }
        var closeCode: WebSocket.CloseCode? { nil }
        var closeReason: String? { nil }
    }

    @Test("An observed connection is freed once released, whether or not its messages ended")
    func observedConnectionIsFreed() {
        weak var ended: Bare?
        weak var open: Bare?
        do {
            let first = Bare()
            ended = first
            _ = ObservedWebSocketConnection(first, observers: [Log()])
            first.inbox.finish()
            let second = Bare()
            open = second
            _ = ObservedWebSocketConnection(second, observers: [Log()])
        }
        #expect(ended == nil, "the tap must not keep the connection that owns its inbox")
        #expect(open == nil)
    }

    @Test("The end reaches the tap after the message being delivered, never inside it")
    func endWaitsForTheMessageBeingDelivered() {
        let inbox = WebSocketInbox(capacity: 1024)
        let seen = Locked<[String]>([])
        inbox.tap { event in
            switch event {
            case .message:
                seen.withLock { $0.append("message begins") }
                // The end arrives (from another thread, in life) while the message is delivered.
                inbox.finish()
                seen.withLock { $0.append("message delivered") }
            case .end:
                seen.withLock { $0.append("end") }
            }
        }
        inbox.yield(.text("last"))
        #expect(seen.withLock { $0 } == ["message begins", "message delivered", "end"])
    }

    @Test("Messages yielded from several threads reach the tap one at a time")
    func tapCallsNeverOverlap() async {
        let inbox = WebSocketInbox(capacity: 1 << 30)
        let state = Locked((inside: 0, overlaps: 0, count: 0))
        inbox.tap { _ in
            state.withLock {
                $0.inside += 1; if $0.inside > 1 { $0.overlaps += 1 }
            }
            state.withLock {
                $0.inside -= 1; $0.count += 1
            }
        }
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for _ in 0..<500 { inbox.yield(.text("x")) } }
            }
        }
        inbox.finish()
        #expect(state.withLock { $0.overlaps } == 0)
        #expect(state.withLock { $0.count } == 2001)
    }

    @Test("A reader gets an arrival or the end only after the tap saw it", arguments: [false, true])
    func readerWaitsForTheTap(end: Bool) async throws {
        let inbox = WebSocketInbox(capacity: 1024)
        let order = Locked<[String]>([])
        let tapEntered = DispatchSemaphore(value: 0)
        let releaseTap = DispatchSemaphore(value: 0)
        inbox.tap { _ in
            tapEntered.signal()
            releaseTap.wait()
            order.withLock { $0.append("tapped") }
        }
        // The connection's I/O thread, held inside the tap.
        Thread.detachNewThread { if end { inbox.finish() } else { inbox.yield(.text("hi")) } }
        tapEntered.wait()
        let reader = Task {
            let message = try await inbox.next()
            order.withLock { $0.append("read \(message == nil ? "end" : "message")") }
        }
        // The reader either waits (it must) or has already read (the fault).
        while !inbox.hasWaitingReader && order.withLock({ $0.isEmpty }) { await Task.yield() }
        releaseTap.signal()
        try await reader.value
        #expect(order.withLock { $0 } == ["tapped", end ? "read end" : "read message"])
    }
}
