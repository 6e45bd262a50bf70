import NetToolbox
import Foundation
import NetCore

/// Records every exchange (request, response or error, timings, attempt, source) in a bounded,
/// thread-safe buffer that you can query, clear and export as HAR 1.2.
///
/// ```swift
/// let capture = CapturePlugin(maxEntries: 500, maxBytes: 8 << 20)
/// let provider = Provider<API>(plugins: [capture])
/// _ = try await provider.request(.users)
/// let failures = capture.exchanges(host: "api.example.com", status: 500...599)
/// try capture.harData().write(to: URL(filePath: "session.har"))  // open in a browser's dev tools
/// ```
///
/// Each attempt is one entry (a retried call leaves one per attempt); outcomes that never reached
/// the transport (answered in `prepare`, stopped, failed to build) and recovered results are
/// recorded from `process`. Recording holds a lock only to append a struct; redaction and HAR
/// building happen when you read. When the buffer is full (by count or by bytes of bodies), the
/// oldest entries go. An exchange larger than `maxBytes` alone is kept without its bodies.
///
/// Values under redacted names (``Redaction``) never leave the capture: entries, queries and the
/// HAR all show `<redacted>`. URLs lose their userinfo; JSON, form and multipart bodies are
/// redacted by field name; every body (binary included) and error message has the request's
/// secret values replaced.
///
/// A WebSocket's messages are kept in the entry of its handshake (the 101), in order, as
/// ``CapturedExchange/webSocketMessages`` and in the HAR as `_webSocketMessages`. The messages
/// of all connections together keep at most `maxBytes` (beside the bodies' `maxBytes`; each
/// message counts 64 bytes on top of its payload); the rest are counted in the entry's comment.
public final class CapturePlugin: Plugin {
    /// What is hidden when entries are read or exported.
    package let redaction: Redaction
    private let maxBytes: Int
    private let buffer: Locked<CaptureBuffer>
    /// What every connection's messages share.
    let webSocketBudget: CapturedWebSocketBudget

    /// Creates a capture.
    /// - Parameters:
    ///   - maxEntries: The most entries kept. Default 1000.
    ///   - maxBytes: The most body bytes (request plus response) kept. Default 16 MiB.
    ///   - redaction: Header, query and field names whose values are hidden. Default: ``Redaction/default``.
    public init(maxEntries: Int = 1000, maxBytes: Int = 16 << 20, redaction: Redaction = .default) {
        self.redaction = redaction
        self.maxBytes = max(0, maxBytes)
        self.buffer = Locked(CaptureBuffer(maxCount: maxEntries, maxBytes: maxBytes))
        self.webSocketBudget = CapturedWebSocketBudget(limit: max(0, maxBytes))
    }

    // MARK: Hooks

    /// Records each attempt's outcome (an observer: it never changes the result).
    public func didReceive(_ result: Result<Response, NetworkError>, for request: Request) async {
        switch result {
        case .success(let response): record(request, response: response, error: nil)
        case .failure(let error): record(request, response: error.response, error: error)
        }
    }

    private func record(_ request: Request, response: Response?, error: NetworkError?) {
        let duration = response?.metrics?.duration ?? .now - request.attemptStartedAt
        let startDate = response?.metrics?.startDate ?? Date(timeIntervalSinceNow: -duration.seconds)
        let requestBytes: Int
        switch request.body {
        case .none, .file: requestBytes = 0
        case .data(let data): requestBytes = data.count
        case .multipart(let body): requestBytes = Int(body.contentLength)
        }
        let bytes = requestBytes + (response?.data.count ?? 0)
        // An exchange over the limit alone is kept without bodies: the request's, the response's,
        // and those of the response an error carries.
        let keepsBodies = bytes <= maxBytes
        var kept = request
        if !keepsBodies { kept.body = .none }
        // A failure's response is the one its error carries: kept once, for both.
        let keptResponse = response?.kept(for: kept, keepsBody: keepsBodies)
        var record: CaptureRecord? = CaptureRecord(
            request: kept, response: keptResponse.map(CapturedResponse.init),
            error: keptResponse.flatMap { error?.carrying($0) } ?? error, startDate: startDate, duration: duration,
            bytes: keepsBodies ? bytes : 0, bodiesOmitted: !keepsBodies)
        if response?.statusCode == 101, request.headers["Upgrade"]?.lowercased() == "websocket" {
            record?.webSocket = CapturedWebSocketLog(budget: webSocketBudget)
        }
        // Moved, not copied, into the buffer: the lock covers only the ring update, and evicted
        // records are released after it.
        let evicted = buffer.withLock { $0.append(record.take()!) }
        withExtendedLifetime(evicted) {}
    }

    /// The message log of the handshake `request`'s entry, if it is still kept.
    func webSocketLog(for request: Request) -> CapturedWebSocketLog? {
        records.last { $0.request.id == request.id && $0.request.attempt == request.attempt }?.webSocket
    }

    // MARK: Reading

    /// How many entries are kept now.
    public var count: Int { buffer.withLock { $0.count } }

    /// The kept records, oldest first, as stored (not redacted).
    var records: [CaptureRecord] { buffer.withLock { $0.records } }

    /// Every kept entry, oldest first, redacted.
    package var exchanges: [CapturedExchange] { exchanges() }

    /// Kept entries that match every given filter, oldest first, redacted.
    /// - Parameters:
    ///   - host: The exact host (case-insensitive).
    ///   - path: The exact URL path, or a prefix when it ends with `*` (`"/users/*"`).
    ///   - status: Status codes to include; entries without a response never match.
    ///   - since: Entries that started at or after this date.
    ///   - until: Entries that started before this date.
    public func exchanges(
        host: String? = nil, path: String? = nil, status: ClosedRange<Int>? = nil,
        since: Date? = nil, until: Date? = nil
    ) -> [CapturedExchange] {
        return records.filter { record in
            if let host, record.request.host.lowercased() != host.lowercased() { return false }
            if let path {
                let actual = record.request.url.path
                if path.hasSuffix("*") ? !actual.hasPrefix(String(path.dropLast())) : actual != path { return false }
            }
            if let status {
                guard let code = record.response?.statusCode, status.contains(code) else { return false }
            }
            if let since, record.startDate < since { return false }
            if let until, record.startDate >= until { return false }
            return true
        }.map { $0.redacted(with: redaction) }
    }

    /// Kept entries with exactly this status code.
    package func exchanges(status: Int) -> [CapturedExchange] {
        exchanges(status: status...status)
    }

    /// Forgets every entry.
    public func clear() {
        buffer.withLock { $0.removeAll() }
    }

    /// The kept entries as a HAR 1.2 document (JSON, UTF-8), redacted, oldest first.
    /// - Throws: ``/NetCore/NetworkError/encodingFailed(target:reason:underlying:)`` if JSON encoding fails.
    public func harData() throws(NetworkError) -> Data {
        try HARDocument(exchanges: exchanges).encoded()
    }
}
