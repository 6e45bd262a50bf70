#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// The phases of a task's last transaction from `URLSessionTaskMetrics`, as plain values (the
/// metrics object is not `Sendable`). A platform that leaves a date out leaves its phase nil.
struct CollectedMetrics: Sendable, Equatable {
    var dns: Duration?
    var connect: Duration?
    var tlsHandshake: Duration?
    var requestStart: Duration?
    var firstByte: Duration?
    var transfer: Duration?
    var isReusedConnection: Bool
    var remoteAddress: String?
    var remotePort: Int?
    var httpVersion: String?

    /// The last transaction's phases, or nil when the platform measured none (no fetch start).
    init?(_ metrics: URLSessionTaskMetrics) {
        guard let last = metrics.transactionMetrics.last, let start = last.fetchStartDate else { return nil }
        self.init(
            start: start, domainLookup: (last.domainLookupStartDate, last.domainLookupEndDate), connectEnd: last.connectEndDate,
            secureConnection: (last.secureConnectionStartDate, last.secureConnectionEndDate),
            requestStart: last.requestStartDate, response: (last.responseStartDate, last.responseEndDate),
            isReusedConnection: last.isReusedConnection, remoteAddress: last.remoteAddress,
            remotePort: Self.port(last.remotePort), protocolName: last.networkProtocolName)
    }

    /// Phases from the dates of one transaction, counted from `start` (its fetch start).
    init(
        start: Date, domainLookup: (Date?, Date?), connectEnd: Date?, secureConnection: (Date?, Date?), requestStart: Date?,
        response: (Date?, Date?), isReusedConnection: Bool, remoteAddress: String?, remotePort: Int?, protocolName: String?
    ) {
        func span(_ from: Date?, _ to: Date?) -> Duration? {
            guard let from, let to, to >= from else { return nil }
            return .seconds(to.timeIntervalSince(from))
        }
        dns = span(domainLookup.0, domainLookup.1)
        connect = span(start, connectEnd)
        tlsHandshake = span(secureConnection.0, secureConnection.1)
        self.requestStart = span(start, requestStart)
        firstByte = span(start, response.0)
        transfer = span(response.0, response.1)
        self.isReusedConnection = isReusedConnection
        self.remoteAddress = remoteAddress
        self.remotePort = remotePort
        httpVersion = Self.versionName(protocolName)
    }

    /// The port as Apple's Foundation types it.
    static func port(_ value: Int?) -> Int? { value }
    /// The port as swift-corelibs-foundation types it (a string).
    static func port(_ value: String?) -> Int? { value.flatMap { Int($0) } }

    /// `"HTTP/1.1"`, `"HTTP/2"`, `"HTTP/3"` for the ALPN names URLSession reports.
    static func versionName(_ protocolName: String?) -> String? {
        switch protocolName?.lowercased() {
        case "http/1.0": "HTTP/1.0"
        case "http/1.1": "HTTP/1.1"
        case "h2": "HTTP/2"
        case "h3": "HTTP/3"
        default: nil
        }
    }

    /// Fills the phases `metrics` does not have yet.
    func apply(to metrics: inout ResponseMetrics) {
        metrics.dnsDuration = metrics.dnsDuration ?? dns
        metrics.connectDuration = metrics.connectDuration ?? connect
        metrics.tlsHandshakeDuration = metrics.tlsHandshakeDuration ?? tlsHandshake
        metrics.requestStartDuration = metrics.requestStartDuration ?? requestStart
        metrics.timeToFirstByte = metrics.timeToFirstByte ?? firstByte
        metrics.transferDuration = metrics.transferDuration ?? transfer
        metrics.isReusedConnection = metrics.isReusedConnection ?? isReusedConnection
        metrics.remoteAddress = metrics.remoteAddress ?? remoteAddress
        metrics.remotePort = metrics.remotePort ?? remotePort
        metrics.httpVersion = metrics.httpVersion ?? httpVersion
    }
}
