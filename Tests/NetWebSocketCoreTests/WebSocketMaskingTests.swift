import Testing

@testable import NetWebSocketCore

@Suite("WebSocket masking")
struct WebSocketMaskingTests {
    @Test("Masking eight bytes at a time gives what masking byte by byte gives, at every length and offset")
    func wordMaskingMatchesBytewise() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<70 {
            let key = (0..<4).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let payload = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = payload.enumerated().map { $0.element ^ key[$0.offset & 3] }
            let frame = WebSocketFrameEncoder.encode(.init(opcode: .binary, payload: payload), maskingKey: key)
            #expect(Array(frame.suffix(length)) == expected, "length \(length)")
            #expect(Array(frame.dropLast(length).suffix(4)) == key)
        }
    }
}
