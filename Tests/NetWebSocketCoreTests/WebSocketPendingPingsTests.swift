@testable import NetWebSocketCore
import Testing

import NetBase

/// Which waiting pings a pong answers.
@Suite("WebSocket pending pings")
struct WebSocketPendingPingsTests {
    @Test("Each ping gets its own payload, and a pong answers only the ping it echoes and those before it")
    func pongMatchesItsPing() {
        var pings = WebSocketPendingPings()
        let first = pings.add(waiter: 1)
        let second = pings.add(waiter: 2)
        let third = pings.add(waiter: 3)
        #expect(Set([first, second, third]).count == 3)
        #expect(pings.answered(by: second) == [1, 2], "the pong to the second ping answers the first too, never the third")
        #expect(pings.count == 1)
        #expect(pings.answered(by: second) == [], "a repeated pong answers nothing")
        #expect(pings.answered(by: third) == [3])
    }

    @Test("Pings whose callers stopped waiting are forgotten, and their pongs answer nothing")
    func forgottenPings() {
        var pings = WebSocketPendingPings()
        let cancelled = pings.add(waiter: 1)
        _ = pings.add(waiter: 2)
        pings.forget { $0 == 1 }
        #expect(pings.count == 1)
        #expect(pings.answered(by: cancelled) == [])
    }

    @Test("An unsolicited pong (empty or unknown payload) answers no waiting ping")
    func unsolicitedPongAnswersNothing() {
        var pings = WebSocketPendingPings()
        _ = pings.add(waiter: 7)
        #expect(pings.answered(by: []) == [])
        #expect(pings.answered(by: Array("heartbeat".utf8)) == [])
        #expect(pings.count == 1)
        #expect(pings.removeAll() == [7])
        #expect(pings.count == 0)
    }
}
