@testable import NetWebSocketCore
import Foundation
import Testing

import NetBase

/// Every transition of a WebSocket connection (RFC 6455, sections 5-7) without a socket.
@Suite("WebSocket connection state machine")
struct WebSocketStateMachineTests {
    typealias Machine = WebSocketConnectionStateMachine
    static let key: [UInt8] = [0, 0, 0, 0]

    func machine(limit: Int = 1 << 20) -> Machine {
        var machine = Machine(maximumMessageSize: limit)
        machine.fixedMaskingKey = Self.key
        return machine
    }

    func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
        WebSocketCodecTests.serverFrame(opcode, payload, fin: fin)
    }

    /// What the client writes for `opcode` and `payload` with the all-zero test key.
    func clientFrame(_ opcode: WebSocketFrame.Opcode, _ payload: [UInt8]) -> [UInt8] {
        WebSocketFrameEncoder.encode(WebSocketFrame(opcode: opcode, payload: payload), maskingKey: Self.key)
    }

    func closePayload(_ code: UInt16, _ reason: String = "") -> [UInt8] {
        [UInt8(code >> 8), UInt8(code & 0xFF)] + Array(reason.utf8)
    }

    func failure(_ actions: [Machine.Action]) -> WebSocket.CloseCode? {
        for case .fail(.violation(let violation)) in actions { return violation.code }
        return nil
    }

    @Test("A text and a binary frame are delivered as whole messages")
    func deliversMessages() {
        var machine = machine()
        let actions = machine.received(frame(0x1, Array("hé".utf8)) + frame(0x2, [1, 2]))
        #expect(actions == [.deliver(.text("hé")), .deliver(.binary(Data([1, 2])))])
        #expect(machine.phase == .open)
    }

    @Test("Fragments are joined, with pings between them answered at once")
    func fragmentsWithInterleavedPing() {
        var machine = machine()
        let bytes =
            frame(0x1, Array("Hel".utf8), fin: false) + frame(0x9, [7]) + frame(0x0, Array("lo".utf8), fin: false)
            + frame(0xA, [8]) + frame(0x0, [], fin: true)
        #expect(step(machine.received(bytes)) == [.write(clientFrame(.pong, [7])), .pongReceived([8]), .deliver(.text("Hello"))])
    }

    @Test("A UTF-8 character split across fragments is valid; invalid bytes fail fast with 1007")
    func utf8AcrossFragments() {
        var machine = machine()
        let euro: [UInt8] = [0xE2, 0x82, 0xAC]
        #expect(step(machine.received(frame(0x1, [euro[0]], fin: false) + frame(0x0, Array(euro[1...])))) == [.deliver(.text("€"))])
        var bad = self.machine()
        let actions = bad.received(frame(0x1, [0xCE, 0xBA, 0xED, 0xA0], fin: false))
        #expect(failure(actions) == .invalidFramePayloadData, "fails on the fragment, not at the message's end")
        #expect(actions.first == .write(clientFrame(.close, closePayload(1007))))
        #expect(bad.phase == .closed)
    }

    @Test("A text message ending inside a character fails with 1007")
    func truncatedCharacter() {
        var machine = machine()
        #expect(failure(step(machine.received(frame(0x1, [0xE2, 0x82])))) == .invalidFramePayloadData)
    }

    @Test("A continuation without a message, or a new message inside a fragmented one, fails with 1002")
    func fragmentationErrors() {
        var orphan = machine()
        #expect(failure(step(orphan.received(frame(0x0, [1])))) == .protocolError)
        var nested = machine()
        #expect(failure(step(nested.received(frame(0x1, [0x61], fin: false) + frame(0x2, [1])))) == .protocolError)
    }

    @Test("A message growing past the maximum across fragments fails with 1009 from the next header")
    func messageTooBigAcrossFragments() {
        var machine = machine(limit: 10)
        let actions = machine.received(frame(0x2, [UInt8](repeating: 0, count: 8), fin: false) + [0x00, 3])
        #expect(failure(actions) == .messageTooBig)
        #expect(actions.first == .write(clientFrame(.close, closePayload(1009))))
    }

    @Test("A peer's close is echoed with its code, then the socket closes and the stream ends")
    func peerCloses() {
        var machine = machine()
        let actions = machine.received(frame(0x8, closePayload(1001, "bye")))
        #expect(actions == [.write(clientFrame(.close, closePayload(1001))), .closeTransport, .finish])
        #expect(machine.closeCode == .goingAway && machine.closeReason == "bye")
        #expect(step(machine.send(.text("late"))) == .failure(.closing))
        #expect(step(machine.received(frame(0x1, [0x61]))) == [], "nothing is read after the close")
    }

    @Test("An empty close is echoed empty and reported as 1005")
    func emptyClose() {
        var machine = machine()
        #expect(step(machine.received(frame(0x8, []))) == [.write(clientFrame(.close, [])), .closeTransport, .finish])
        #expect(machine.closeCode == .noStatusReceived)
    }

    @Test(
        "Close codes the protocol forbids, a one-byte close and a non-UTF-8 reason fail the connection",
        arguments: [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535] as [UInt16])
    func invalidCloseCodes(code: UInt16) {
        var machine = machine()
        #expect(failure(step(machine.received(frame(0x8, closePayload(code))))) == .protocolError)
    }

    @Test("Valid close codes are accepted", arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 4999] as [UInt16])
    func validCloseCodes(code: UInt16) {
        var machine = machine()
        #expect(step(machine.received(frame(0x8, closePayload(code)))).last == .finish)
        #expect(machine.closeCode?.rawValue == code)
    }

    @Test("A one-byte close fails with 1002 and a bad reason with 1007")
    func malformedClosePayloads() {
        var oneByte = machine()
        #expect(failure(step(oneByte.received(frame(0x8, [0x03])))) == .protocolError)
        var badReason = machine()
        #expect(failure(step(badReason.received(frame(0x8, closePayload(1000) + [0xFF])))) == .invalidFramePayloadData)
    }

    @Test("Our close sends a frame and starts the timer; the peer's answer then ends the stream normally")
    func weClose() {
        var machine = machine()
        #expect(step(machine.close(code: .normalClosure, reason: "done")) == [.write(clientFrame(.close, closePayload(1000, "done"))), .startCloseTimer])
        #expect(machine.phase == .closeSent)
        #expect(step(machine.close(code: .normalClosure, reason: "")) == [], "a second close does nothing")
        #expect(step(machine.send(.text("x"))) == .failure(.closing))
        #expect(step(machine.received(frame(0x1, [0x61]))) == [.deliver(.text("a"))], "data the peer sent before its close still arrives")
        #expect(step(machine.received(frame(0x9, [1]))) == [], "no pong after our close")
        #expect(step(machine.received(frame(0x8, closePayload(1000)))) == [.closeTransport, .finish])
        #expect(machine.closeCode == .normalClosure)
        #expect(step(machine.closeTimerFired()) == [])
    }

    @Test("A peer that never answers our close is dropped when the timer fires, as 1006")
    func closeTimeout() {
        var machine = machine()
        _ = machine.close(code: .normalClosure, reason: "")
        #expect(step(machine.closeTimerFired()) == [.closeTransport, .finish])
        #expect(machine.closeCode == .abnormalClosure)
        #expect(machine.phase == .closed)
    }

    @Test("The byte stream ending before a close handshake is a lost connection (1006); after it, nothing")
    func connectionEnds() {
        var machine = machine()
        #expect(step(machine.connectionEnded()) == [.closeTransport, .fail(.connectionLost)])
        #expect(machine.closeCode == .abnormalClosure)
        #expect(step(machine.connectionEnded()) == [])
        var closed = self.machine()
        _ = closed.received(frame(0x8, closePayload(1000)))
        #expect(step(closed.connectionEnded()) == [])
    }

    @Test("Sends and pings are masked frames while open; an invalid code is sent as an empty close")
    func outgoing() {
        var machine = machine()
        #expect(step(machine.send(.binary(Data([9])))) == .success(clientFrame(.binary, [9])))
        #expect(step(machine.ping(payload: [1])) == .success(clientFrame(.ping, [1])))
        #expect(step(machine.close(code: WebSocket.CloseCode(rawValue: 1005), reason: "x")).first == .write(clientFrame(.close, [])))
        #expect(step(machine.ping(payload: [])) == .failure(.closing))
    }

    @Test("A violation after our close closes without a second close frame")
    func violationWhileClosing() {
        var machine = machine()
        _ = machine.close(code: .normalClosure, reason: "")
        #expect(
            step(machine.received([0xF1, 0x00])) == [
                .closeTransport, .fail(.violation(WebSocketProtocolViolation(.protocolError, "a frame set reserved bits no extension was negotiated for"))),
            ])
    }

    @Test("Frames after a violation in the same read are ignored, and the buffer is dropped")
    func bytesAfterViolation() {
        var machine = machine()
        let actions = machine.received([0x83, 0x00] + frame(0x1, [0x61]))
        #expect(actions.filter { if case .deliver = $0 { true } else { false } }.isEmpty)
        #expect(step(machine.received(frame(0x1, [0x61]))) == [])
    }
}
