import Foundation
import Testing

@testable import NetBase
@testable import NetURLSession

/// `URLSessionTaskMetrics` dates become `ResponseMetrics` phases (Apple platforms deliver them;
/// FoundationNetworking on Linux delivers none, and the phases stay nil there).
@Suite("URLSession task metrics")
struct CollectedMetricsTests {
    @Test("A transaction's dates become phases counted from its fetch start, and the ALPN name an HTTP version")
    func phasesFromDates() {
        let start = Date(timeIntervalSince1970: 1_000)
        func at(_ milliseconds: Double) -> Date { start + milliseconds / 1_000 }
        let collected = CollectedMetrics(
            start: start, domainLookup: (at(1), at(3)), connectEnd: at(10), secureConnection: (at(4), at(10)),
            requestStart: at(11), response: (at(20), at(25)), isReusedConnection: false, remoteAddress: "127.0.0.1",
            remotePort: 8443, protocolName: "h2")
        var metrics = ResponseMetrics(startDate: start, duration: .milliseconds(26))
        collected.apply(to: &metrics)
        func close(_ value: Duration?, _ milliseconds: Int64) -> Bool {
            guard let value else { return false }
            return abs((value - .milliseconds(milliseconds)) / .microseconds(1)) < 1
        }
        #expect(close(metrics.dnsDuration, 2))
        #expect(close(metrics.connectDuration, 10))
        #expect(close(metrics.tlsHandshakeDuration, 6))
        #expect(close(metrics.requestStartDuration, 11))
        #expect(close(metrics.timeToFirstByte, 20))
        #expect(close(metrics.transferDuration, 5))
        #expect(metrics.isReusedConnection == false)
        #expect(metrics.remoteAddress == "127.0.0.1" && metrics.remotePort == 8443)
        #expect(metrics.httpVersion == "HTTP/2")
    }

    @Test("Missing dates leave their phases nil, and a reused connection has no DNS, connect or TLS phase")
    func missingDates() {
        let start = Date(timeIntervalSince1970: 1_000)
        let collected = CollectedMetrics(
            start: start, domainLookup: (nil, nil), connectEnd: nil, secureConnection: (nil, nil), requestStart: start + 0.001,
            response: (start + 0.002, nil), isReusedConnection: true, remoteAddress: nil, remotePort: nil, protocolName: "http/1.1")
        var metrics = ResponseMetrics(startDate: start, duration: .milliseconds(3))
        collected.apply(to: &metrics)
        #expect(metrics.dnsDuration == nil && metrics.connectDuration == nil && metrics.tlsHandshakeDuration == nil)
        #expect(metrics.transferDuration == nil)
        #expect(metrics.isReusedConnection == true)
        #expect(metrics.httpVersion == "HTTP/1.1")
        #expect(CollectedMetrics.port("8443") == 8443 && CollectedMetrics.versionName("h3") == "HTTP/3")
    }
}
