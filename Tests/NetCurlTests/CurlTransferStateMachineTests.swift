import Foundation
import Testing

@testable import NetBase
@testable import NetCurl

/// Every transition of a curl transfer's life, late and out-of-order events included, without a
/// socket or libcurl.
@Suite("Curl transfer state machine")
struct CurlTransferStateMachineTests {
    typealias Machine = CurlTransferStateMachine

    /// Passes a mutating call's answer to `#expect`, which cannot capture a mutated value itself.
    func step<T>(_ answer: T) -> T { answer }

    /// A machine that received a status line and the end of its headers.
    func machine(status: Int, streams: Bool, yieldEvery: Int = 100) -> (Machine, delivered: Bool) {
        var machine = Machine(yieldEvery: yieldEvery)
        #expect(step(machine.statusLine(status)))
        let delivered = machine.headersEnded(streamsSuccess: streams)
        return (machine, delivered)
    }

    @Test("Before a status line nothing is known, and body bytes are refused")
    func initialState() {
        var machine = Machine(yieldEvery: 100)
        #expect(machine.phase == .awaitingStatus)
        #expect(machine.statusCode == 0)
        #expect(!machine.headersComplete && !machine.headDelivered && !machine.isPausedForReader && !machine.hasYielded)
        #expect(step(machine.bodyArrived(10, readerHasRoom: true)) == .refuse)
        #expect(!step(machine.headersEnded(streamsSuccess: true)), "a blank line before a status line ends nothing")
    }

    @Test("An interim 1xx head is never delivered; the final 2xx head of a stream is")
    func interimThenFinal() {
        var machine = Machine(yieldEvery: 100)
        #expect(step(machine.statusLine(103)))
        #expect(!step(machine.headersEnded(streamsSuccess: true)))
        #expect(machine.phase == .receivingBody(status: 103))
        #expect(step(machine.statusLine(200)))
        #expect(machine.phase == .readingHeaders(status: 200))
        #expect(!machine.headersComplete)
        #expect(step(machine.headersEnded(streamsSuccess: true)))
        #expect(machine.phase == .streaming(status: 200, pausedForReader: false))
        #expect(step(machine.statusLine(200)) == false, "no second response once a stream's head went out")
    }

    @Test("A stream's non-2xx response is received whole, not streamed")
    func streamedErrorIsBuffered() {
        var (machine, delivered) = machine(status: 404, streams: true)
        #expect(!delivered)
        #expect(machine.phase == .receivingBody(status: 404))
        #expect(step(machine.bodyArrived(10, readerHasRoom: false)) == .keep)
    }

    @Test("A buffered body yields after each share and starts a new share when resumed")
    func yieldingShares() {
        var (machine, _) = machine(status: 200, streams: false, yieldEvery: 100)
        #expect(step(machine.bodyArrived(60, readerHasRoom: false)) == .keep)
        #expect(step(machine.bodyArrived(60, readerHasRoom: false)) == .keep)
        #expect(step(machine.bodyArrived(60, readerHasRoom: false)) == .yieldToOthers)
        #expect(machine.hasYielded)
        machine.resumedAfterYield()
        #expect(!machine.hasYielded)
        #expect(step(machine.bodyArrived(60, readerHasRoom: false)) == .keep)
    }

    @Test("Bytes libcurl held while a transfer yielded are taken whole on resume, and count toward the share after them")
    func heldBytesAreTakenWhole() {
        var (machine, _) = machine(status: 200, streams: false, yieldEvery: 100)
        #expect(step(machine.bodyArrived(100, readerHasRoom: false)) == .keep)
        #expect(step(machine.bodyArrived(16, readerHasRoom: false)) == .yieldToOthers)
        machine.resumedAfterYield()
        #expect(machine.isTakingHeldBytes)
        // A decoded body's backlog: far more than one share, all of it kept at once.
        for _ in 0..<10 { #expect(step(machine.bodyArrived(100, readerHasRoom: false)) == .keep) }
        machine.tookHeldBytes()
        #expect(!machine.isTakingHeldBytes)
        #expect(step(machine.bodyArrived(16, readerHasRoom: false)) == .yieldToOthers, "the backlog used up the share")
    }

    @Test("A stream forwards while its reader has room, pauses without, and goes on once it made room")
    func streamBackpressure() {
        var (machine, delivered) = machine(status: 200, streams: true)
        #expect(delivered)
        #expect(step(machine.bodyArrived(10, readerHasRoom: true)) == .forwardToReader)
        #expect(step(machine.bodyArrived(10, readerHasRoom: false)) == .pauseForReader)
        #expect(machine.isPausedForReader)
        machine.readerMadeRoom()
        #expect(!machine.isPausedForReader)
        machine.readerMadeRoom()
        #expect(machine.phase == .streaming(status: 200, pausedForReader: false), "a second unpause changes nothing")
        #expect(step(machine.bodyArrived(1_000, readerHasRoom: true)) == .forwardToReader, "streams never yield for fairness")
    }

    @Test("The first failure wins, and every later event is refused or ignored")
    func failureIsFinal() {
        var (machine, _) = machine(status: 200, streams: false)
        machine.fail(.responseTooLarge(limit: 5))
        machine.fail(.cancelled)
        #expect(machine.failure?.code == .responseTooLarge)
        #expect(step(machine.bodyArrived(1, readerHasRoom: true)) == .refuse)
        #expect(!step(machine.statusLine(200)))
        guard case .failed(let recorded) = machine.completion(libcurlSucceeded: true) else {
            Issue.record("a recorded failure must fail the transfer even when libcurl says OK")
            return
        }
        #expect(recorded?.code == .responseTooLarge)
    }

    @Test("A failure inside the headers stops their end from delivering anything")
    func failureInsideHeaders() {
        var machine = Machine(yieldEvery: 100)
        #expect(step(machine.statusLine(200)))
        machine.fail(.invalidResponse(reason: "two lengths"))
        #expect(!step(machine.headersEnded(streamsSuccess: true)))
        #expect(!machine.headDelivered)
    }

    @Test("Completion: libcurl's own failure, headers cut off, or a whole response")
    func completion() {
        let fresh = Machine(yieldEvery: 100)
        guard case .failed(nil) = fresh.completion(libcurlSucceeded: false) else {
            Issue.record("libcurl's failure without a recorded one is libcurl's")
            return
        }
        var cut = Machine(yieldEvery: 100)
        #expect(step(cut.statusLine(200)))
        guard case .headersIncomplete = cut.completion(libcurlSucceeded: true) else {
            Issue.record("a connection closed inside the headers is not a response")
            return
        }
        let (whole, _) = machine(status: 204, streams: false)
        guard case .succeeded = whole.completion(libcurlSucceeded: true) else {
            Issue.record("a complete response succeeds")
            return
        }
    }
}
