import Foundation
@testable import NetBase
@testable import NetCore
@testable import NetCurl
import Testing

@Suite("Placing transfers on a transport's loops")
struct CurlLoopPlacementTests {
    @Test func oneLoopTakesEverything() {
        var placement = CurlLoopPlacement()
        #expect(placement.choose(key: 1, loads: [5]) == 0)
        #expect(placement.choose(key: 2, loads: [0]) == 0)
    }

    @Test func sequentialCallsToOneOriginStayOnTheLoopThatServedIt() {
        var placement = CurlLoopPlacement()
        let first = placement.choose(key: 7, loads: [0, 0, 0])
        // Other origins come and go in between; the idle loops tie, and the origin's loop wins.
        _ = placement.choose(key: 8, loads: [0, 0, 0])
        _ = placement.choose(key: 9, loads: [0, 0, 0])
        for _ in 0..<10 { #expect(placement.choose(key: 7, loads: [0, 0, 0]) == first) }
    }

    @Test func theLeastLoadedLoopWinsOverTheOriginsLoop() {
        var placement = CurlLoopPlacement()
        #expect(placement.choose(key: 7, loads: [0, 0]) == 0)
        #expect(placement.choose(key: 7, loads: [1, 0]) == 1, "loop 0 is busier: reuse does not starve loop 1")
        #expect(placement.choose(key: 7, loads: [3, 1, 2]) == 1)
    }

    @Test func newOriginsSpreadOverIdleLoops() {
        var placement = CurlLoopPlacement()
        let chosen = (0..<4).map { placement.choose(key: 100 + $0, loads: [0, 0]) }
        #expect(chosen == [0, 1, 0, 1])
    }

    @Test func aBurstToOneOriginIsSplitEvenly() {
        var placement = CurlLoopPlacement()
        var loads = [0, 0]
        for _ in 0..<8 { loads[placement.choose(key: 42, loads: loads)] += 1 }
        #expect(loads == [4, 4])
        // As transfers end on one loop, new ones go there.
        loads[1] -= 2
        #expect(placement.choose(key: 42, loads: loads) == 1)
    }

    @Test func manyOriginsDoNotBreakPlacement() {
        var placement = CurlLoopPlacement()
        for key in 0..<(CurlLoopPlacement.maxRememberedKeys * 3) {
            #expect(placement.choose(key: key, loads: [2, 1, 2]) == 1)
        }
        let loop = placement.choose(key: -1, loads: [0, 0])
        #expect(placement.choose(key: -1, loads: [0, 0]) == loop)
    }

    @Test("A configured number of loops is kept, and 0 means one loop per active core, at most 8")
    func theConfigurationPicksTheNumberOfLoops() {
        #expect(CurlEngineGroup.loopCount(3) == 3)
        #expect(CurlEngineGroup.loopCount(0) == min(max(1, ProcessInfo.processInfo.activeProcessorCount), 8))
        #expect(CurlEngineGroup.loopCount(0, cores: 1) == 1)
        #expect(CurlEngineGroup.loopCount(0, cores: 64) == 8)
        #expect(CurlEngineGroup.loopCount(12, cores: 64) == 12)
        #expect(CurlTransport().loopCount == min(ProcessInfo.processInfo.activeProcessorCount, 8))
        #expect(CurlTransport(configuration: .init(eventLoops: 3)).loopCount == 3)
    }

    @Test func theConnectionKeyIsTheOriginTLSAndProxy() {
        func key(_ url: String, tls: TLSPolicy? = nil) -> Int {
            let request = Request.to(URL(string: url)!, tls: tls)
            return CurlEngineGroup.connectionKey(request, head: CurlRequestHead(request, proxies: nil))
        }
        #expect(key("http://127.0.0.1:8080/a") == key("http://127.0.0.1:8080/b?c=d"))
        #expect(key("http://127.0.0.1:8080/a") != key("http://127.0.0.1:8081/a"))
        #expect(key("https://example.com/a") != key("http://example.com/a"))
        #expect(key("https://example.com/a") != key("https://example.com/a", tls: TLSPolicy(pinnedKeyHashes: ["AAAA"])))
    }
}
