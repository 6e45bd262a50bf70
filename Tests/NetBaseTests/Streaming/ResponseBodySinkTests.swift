import NetToolbox
import Foundation
import Testing

@testable import NetBase

/// The sink with real continuations and tasks: what its state machine decides reaches the reader,
/// the producer and whoever waits for the end.
@Suite("Response body sink")
struct ResponseBodySinkTests {
    @Test("A reader gets the chunks in order, then nil at the end, whether it waited or not")
    func chunksThenEnd() async throws {
        let sink = ResponseBodySink()
        let reader = Task { () -> [Data] in
            var chunks: [Data] = []
            while let chunk = try await sink.next() { chunks.append(chunk) }
            return chunks
        }
        sink.yield(Data("a".utf8))
        sink.yield(Data("bc".utf8))
        sink.finish()
        #expect(try await reader.value == [Data("a".utf8), Data("bc".utf8)])
        #expect(await sink.ended() == nil)
        #expect(sink.deliveredBytes == 3)
    }

    @Test("A paused producer is resumed once the reader drained the buffer to half, and the producer's error follows the bytes")
    func backpressure() async throws {
        let sink = ResponseBodySink(options: StreamOptions(bufferBytes: 4))
        sink.yield(Data(count: 2))
        sink.yield(Data(count: 2))
        #expect(!sink.hasRoom)
        let resumed = OnceValue<Bool>()
        sink.whenDrained { resumed.resolve(true) }
        #expect(resumed.current == nil)
        #expect(try await sink.next()?.count == 2)
        #expect(await resumed.value())
        sink.finish(throwing: .timedOut)
        #expect(try await sink.next()?.count == 2)
        await #expect { try await sink.next() } throws: { ($0 as? NetworkError)?.code == .timedOut }
        #expect(await sink.ended()?.code == .timedOut)
    }

    @Test("Cancelling the reading task fails its read with cancelled and aborts the producer; ended() still waits for the producer")
    func cancellation() async throws {
        let sink = ResponseBodySink()
        let aborted = OnceValue<Bool>()
        sink.onCancel { aborted.resolve(true) }
        let reader = Task { try await sink.next() }
        reader.cancel()
        await #expect { try await reader.value } throws: { ($0 as? NetworkError)?.code == .cancelled }
        #expect(await aborted.value())
        #expect(sink.isCancelled && !sink.hasRoom)
        let end = Task { await sink.ended() }
        sink.finish(throwing: .cancelled)
        #expect(await end.value?.code == .cancelled)
    }
}
