import Foundation
import Testing

@testable import NetBase
@testable import NetCore
@testable import NetCurl

/// The stall watchdog's verdicts, without threads or sockets: a socket is cut off only when the
/// loop stayed inside one `curl_multi_perform` call with no callback for several looks while
/// that socket was being read.
@Suite("Stall watchdog observations")
struct StallObservationTests {
    typealias ID = CurlSocketRegistry.SocketID

    /// Feeds looks (perform call, heartbeat, bytes read per socket) and returns each verdict.
    func verdicts(_ looks: [(call: UInt64, beat: UInt64, consumed: [ID: Int64])]) -> [Set<ID>?] {
        var observation = StallObservation()
        return looks.map { look in observation.record(call: look.call, beat: look.beat, measure: { look.consumed }) }
    }

    @Test("A loop captive in one call while a socket is read gets that socket cut off, and only it")
    func captiveLoop() {
        let step = StallObservation.floodBytes / 2
        let results = verdicts([
            (1, 5, [1: 100, 2: 50]), (1, 5, [1: 100 + step, 2: 50]), (1, 5, [1: 100 + 2 * step, 2: 50]),
            (1, 5, [1: 100 + 3 * step, 2: 50]), (1, 5, [1: 100 + 4 * step, 2: 50]),
        ])
        #expect(results.dropLast().allSatisfy { $0 == nil })
        #expect(results.last == [1])
    }

    @Test("A slow TLS handshake (a few KiB read with no callback, for many looks) is not a flood")
    func slowHandshakeIsLeftAlone() {
        let results = verdicts((0..<50).map { (7, 5, [1: 2_000 + Int64($0) * 200]) })
        #expect(results.allSatisfy { $0 == nil })
    }

    @Test("Callbacks running means progress: no verdict however long the call")
    func heartbeatMoves() {
        let results = verdicts((0..<10).map { (1, UInt64($0), [1: Int64($0) * 1000]) })
        #expect(results.allSatisfy { $0 == nil })
    }

    @Test("Outside a perform call (even number) there is nothing to judge")
    func outsidePerform() {
        let results = verdicts((0..<10).map { (2, 5, [1: Int64($0) * 1000]) })
        #expect(results.allSatisfy { $0 == nil })
    }

    @Test("A loop that is descheduled or busy elsewhere reads no socket: left alone")
    func nothingRead() {
        let results = verdicts((0..<10).map { _ in (3, 5, [1: 100, 2: 50]) })
        #expect(results.allSatisfy { $0 == nil })
    }

    @Test("A new perform call starts the count again")
    func newCallResets() {
        let results = verdicts([(1, 5, [1: 100]), (1, 5, [1: 200]), (3, 5, [1: 300]), (3, 5, [1: 400])])
        #expect(results.allSatisfy { $0 == nil })
    }

    @Test("Every loop of every transport is looked at by the process's one stall watch, not a watch of its own")
    func oneWatchForEveryLoop() {
        let first = CurlEngineGroup(configuration: .init(eventLoops: 3))
        let second = CurlEngineGroup(configuration: .init(eventLoops: 2))
        defer {
            first.shutdown()
            second.shutdown()
        }
        for engine in first.engines + second.engines {
            #expect(engine.watchdog.watch === CurlStallWatch.shared)
            #expect(CurlStallWatch.shared.isWatching(engine.watchdog))
        }
    }
}
