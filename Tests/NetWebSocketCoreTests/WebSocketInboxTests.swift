@testable import NetWebSocketCore
import NetToolbox
import Foundation
import Testing

import NetBase

/// The bounded queue between a WebSocket's connection and its reader (back-pressure).
@Suite("WebSocket inbox")
struct WebSocketInboxTests {
    @Test("The inbox has no room once its capacity waits unread, and calls back when a read makes room")
    func backPressure() async throws {
        let inbox = WebSocketInbox(capacity: 4 + 2 * WebSocketInbox.messageOverhead)
        let called = Locked(0)
        #expect(inbox.yield(.binary(Data([1, 2]))))
        #expect(!inbox.yield(.binary(Data([3, 4]))), "4 bytes (and two messages' overhead) wait: no room")
        #expect(!inbox.hasRoom)
        inbox.onRoom { called.withLock { $0 += 1 } }
        #expect(try await inbox.next() == .binary(Data([1, 2])))
        #expect(called.withLock { $0 } == 1)
        #expect(inbox.hasRoom)
        #expect(try await inbox.next() == .binary(Data([3, 4])))
        #expect(called.withLock { $0 } == 1, "the callback runs once")
    }

    @Test("Queued messages are read before the end, and an error end throws after them")
    func endAfterQueued() async throws {
        let inbox = WebSocketInbox(capacity: 100)
        inbox.yield(.text("a"))
        inbox.finish(throwing: .timedOut)
        inbox.finish()
        #expect(try await inbox.next() == .text("a"))
        await #expect(throws: NetworkError.self) { try await inbox.next() }
        #expect(!inbox.yield(.text("late")))
    }

    @Test("A waiting reader gets the next message or the end; cancelling it throws cancelled")
    func waitingReader() async throws {
        let inbox = WebSocketInbox(capacity: 100)
        async let first = inbox.next()
        inbox.yield(.text("x"))
        #expect(try await first == .text("x"))
        let waiting = Task { try await inbox.next() }
        waiting.cancel()
        await #expect(throws: NetworkError.self) { try await waiting.value }
        inbox.finish()
        #expect(try await inbox.next() == nil)
    }
}

extension WebSocketInboxTests {
    @Test("A reader that always leaves a backlog does not make the inbox keep every message it read")
    func backlogIsCompacted() async throws {
        let inbox = WebSocketInbox(capacity: 1 << 30)
        inbox.yield(.text("first"))
        for index in 0..<5000 {
            inbox.yield(.text("\(index)"))
            _ = try await inbox.next()
        }
        #expect(inbox.storedMessageCount <= 2 * WebSocketInbox.compactionThreshold + 1)
        #expect(try await inbox.next() == .text("4999"), "the last message is still there, in order")
    }
}

extension WebSocketInboxTests {
    @Test("A flood of empty messages fills the inbox: each message counts against its capacity")
    func emptyMessagesCount() {
        let inbox = WebSocketInbox(capacity: 1024)
        var accepted = 0
        while inbox.yield(.binary(Data())) {
            accepted += 1
            if accepted > 1000 { break }
        }
        #expect(!inbox.hasRoom)
        #expect(accepted < 1024 / WebSocketInbox.messageOverhead)
    }
}

extension WebSocketInboxTests {
    @Test("A second reader while one waits fails with a clear error, and the first still gets the next message")
    func secondReaderFails() async throws {
        let inbox = WebSocketInbox(capacity: 1024)
        let first = Task { try await inbox.next() }
        while !inbox.hasWaitingReader { await Task.yield() }
        let second = await #expect(throws: NetworkError.self) { try await inbox.next() }
        #expect(second.map { String(describing: $0) }?.contains("already reading") == true)
        let cancelledSecond = Task { try await inbox.next() }
        cancelledSecond.cancel()
        _ = try? await cancelledSecond.value
        inbox.yield(.text("for the first"))
        #expect(try await first.value == .text("for the first"))
    }
}

extension WebSocketInboxTests {
    @Test("Handing a message that filled the inbox to a waiting reader makes room and calls back")
    func handOverMakesRoom() async throws {
        let message = WebSocket.Message.binary(Data([1, 2, 3, 4]))
        let inbox = WebSocketInbox(capacity: message.byteCount + WebSocketInbox.messageOverhead)
        let called = Locked(0)
        let sawFull = Locked(false)
        // Weak: the inbox keeps its tap until its messages end, which they never do here.
        inbox.tap { [weak inbox] event in
            // While the tap sees the message, it counts: the connection finds no room and waits.
            guard case .message = event, let inbox else { return }
            sawFull.withLock { $0 = !inbox.hasRoom }
            inbox.onRoom { called.withLock { $0 += 1 } }
        }
        let reader = Task { try await inbox.next() }
        while !inbox.hasWaitingReader { await Task.yield() }
        inbox.yield(message)
        #expect(try await reader.value == message)
        #expect(sawFull.withLock { $0 })
        #expect(inbox.hasRoom)
        #expect(called.withLock { $0 } == 1, "the waiting connection is woken")
    }
}
