@testable import NetWebSocketCore
import Foundation
import Testing

import NetBase

/// How the connection state machine treats RSV1 and compressed messages (RFC 7692, section 6),
/// with a stand-in transformation (the zlib one is tested in NetCurlTests).
@Suite("WebSocket compressed frames")
struct WebSocketCompressedFramesTests {
    typealias Machine = WebSocketConnectionStateMachine

    /// "Compresses" by reversing the bytes and "inflates" by appending them reversed per frame,
    /// counting what it was given.
    final class Reversing: WebSocketCompression {
        var inflated: [[UInt8]] = []
        var ends = 0

        func compress(_ payload: [UInt8]) -> [UInt8]? { payload.reversed() }

        func inflate(_ payload: [UInt8], isFinal: Bool, limit: Int, into output: inout [UInt8]) throws(WebSocketProtocolViolation) {
            inflated.append(payload)
            if isFinal { ends += 1 }
            guard payload.count <= limit - output.count else { throw WebSocketProtocolViolation(.messageTooBig, "too big") }
            output += payload.reversed()
        }
    }

    func machine(_ compression: (any WebSocketCompression)?, limit: Int = 1 << 20) -> Machine {
        var machine = Machine(maximumMessageSize: limit, compression: compression)
        machine.fixedMaskingKey = [0, 0, 0, 0]
        return machine
    }

    func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, rsv1: Bool = false) -> [UInt8] {
        WebSocketCodecTests.serverFrame(opcode, payload, fin: fin, firstByteExtra: rsv1 ? 0x40 : 0)
    }

    func failure(_ actions: [Machine.Action]) -> WebSocketProtocolViolation? {
        for case .fail(.violation(let violation)) in actions { return violation }
        return nil
    }

    @Test("A message whose first frame sets RSV1 is inflated frame by frame and delivered")
    func inflatesFragments() {
        let compression = Reversing()
        var machine = machine(compression)
        let actions = machine.received(frame(0x1, Array("ih".utf8), fin: false, rsv1: true) + frame(0x0, Array("!".utf8)))
        #expect(actions == [.deliver(.text("hi!"))])
        #expect(compression.inflated == [Array("ih".utf8), Array("!".utf8)])
        #expect(compression.ends == 1)
    }

    @Test("A message without RSV1 is delivered as it came, even with compression negotiated")
    func uncompressedMessage() {
        let compression = Reversing()
        var machine = machine(compression)
        #expect(machine.received(frame(0x2, [1, 2, 3])) == [.deliver(.binary(Data([1, 2, 3])))])
        #expect(compression.inflated.isEmpty)
    }

    @Test("A message sent is compressed with RSV1 set; an empty one goes out as it is")
    func sendsCompressed() throws {
        var machine = machine(Reversing())
        let bytes = try machine.send(.binary(Data([1, 2, 3]))).get()
        #expect(bytes == [0xC2, 0x83, 0, 0, 0, 0, 3, 2, 1])
        #expect(try machine.send(.text("")).get() == [0x81, 0x80, 0, 0, 0, 0])
    }

    @Test("RSV1 on a control frame fails the connection with 1002")
    func controlFrame() {
        var machine = machine(Reversing())
        let actions = machine.received(frame(0x9, [1], rsv1: true))
        #expect(failure(actions)?.code == .protocolError)
        #expect(failure(actions)?.reason.contains("control frame set RSV1") == true)
        #expect(actions.contains(.write([0x88, 0x82, 0, 0, 0, 0, 0x03, 0xEA])))
    }

    @Test("RSV1 on a continuation frame fails the connection with 1002")
    func continuationFrame() {
        var machine = machine(Reversing())
        let actions = machine.received(frame(0x1, [0x61], fin: false, rsv1: true) + frame(0x0, [0x62], rsv1: true))
        #expect(failure(actions)?.code == .protocolError)
        #expect(failure(actions)?.reason.contains("continuation frame set RSV1") == true)
    }

    @Test("RSV1 without negotiation fails the connection with 1002")
    func notNegotiated() throws {
        var machine = machine(nil)
        let actions = machine.received(frame(0x1, [0x61], rsv1: true))
        #expect(failure(actions)?.code == .protocolError)
        #expect(failure(actions)?.reason.contains("no extension was negotiated") == true)
        var plain = self.machine(nil)
        #expect(try plain.send(.text("a")).get().first == 0x81, "nothing is compressed without negotiation")
    }

    @Test("RSV2 and RSV3 still fail the connection with compression negotiated")
    func otherReservedBits() {
        var machine = machine(Reversing())
        #expect(failure(machine.received(WebSocketCodecTests.serverFrame(0x1, [0x61], firstByteExtra: 0x20)))?.code == .protocolError)
    }

    @Test("Text is checked as UTF-8 after inflation: inflated bytes that are not UTF-8 fail with 1007")
    func utf8AfterInflation() {
        var machine = machine(Reversing())
        // Reversed on the wire, so the raw payload is not what is checked.
        let actions = machine.received(frame(0x1, [0xFF, 0xBA, 0xCE], rsv1: true))
        #expect(failure(actions)?.code == .invalidFramePayloadData)
        var valid = self.machine(Reversing())
        #expect(valid.received(frame(0x1, [0xBA, 0xCE], rsv1: true)) == [.deliver(.text("κ"))])
    }

    @Test("An inflation past the maximum message size fails with 1009")
    func inflatedTooBig() {
        var machine = machine(Reversing(), limit: 4)
        let actions = machine.received(frame(0x2, [1, 2, 3], fin: false, rsv1: true) + frame(0x0, [4, 5]))
        #expect(failure(actions)?.code == .messageTooBig)
    }
    @Test("One call inflates its share and leaves later frames buffered until it is called again")
    func inflationPerCall() {
        var machine = machine(Reversing())
        machine.inflationPerCall = 4
        let frames = (1...3).map { frame(0x2, [UInt8](repeating: UInt8($0), count: 3), rsv1: true) }.joined()
        #expect(machine.received(Array(frames)) == [.deliver(.binary(Data([1, 1, 1]))), .deliver(.binary(Data([2, 2, 2])))])
        #expect(machine.hasUnreadFrames)
        #expect(machine.received([]) == [.deliver(.binary(Data([3, 3, 3])))])
        #expect(!machine.hasUnreadFrames)
        #expect(machine.received([]).isEmpty)
    }
}
