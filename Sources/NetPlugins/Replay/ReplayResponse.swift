import Foundation
import NetCore

/// Turns a recorded exchange into the ``Response`` (or error) a replay answers with.
enum ReplayResponse {
    /// The recorded answer to `request`: status, headers, body and metrics from the recording,
    /// ``ResponseSource/stub`` as its source. A download is written to its destination, as a
    /// real transport would; progress is reported once, complete.
    /// - Throws: ``NetworkError/connectionLost(reason:underlying:)`` for an entry recorded without a response.
    static func make(
        from exchange: RecordedExchange, for request: Request, source: String,
        progress: ProgressHandler?
    ) throws(NetworkError) -> Response {
        guard let status = exchange.statusCode else {
            let detail = exchange.error.map { ": \($0)" } ?? ""
            throw .connectionLost(reason: "entry \(exchange.index) of \(source) recorded no response for \(request.description)\(detail)")
        }
        let bytes = Int64(exchange.responseBody.count)
        let metrics = ResponseMetrics(
            startDate: Date(), duration: exchange.duration ?? .zero, connectDuration: exchange.connectDuration,
            timeToFirstByte: exchange.timeToFirstByte, bytesSent: request.body.contentLength ?? 0,
            bytesReceived: bytes, httpVersion: exchange.httpVersion
        )
        var response = Response(
            statusCode: status, headers: headers(exchange.responseHeaders), data: exchange.responseBody,
            request: request, source: .stub, metrics: metrics)
        if let download = request.download { try response.storeDownload(at: download) }
        progress?(TransferProgress(direction: .download, completedBytes: bytes, totalBytes: bytes))
        return response
    }

    /// Recorded headers without those that describe the wire encoding: a HAR's `content.text` is
    /// already decoded (browsers record `Content-Encoding: gzip` beside plain text), so
    /// `Content-Encoding` and `Transfer-Encoding` go, and so does `Content-Length` when it counted
    /// encoded bytes.
    private static func headers(_ recorded: HTTPHeaders) -> HTTPHeaders {
        var dropped: Set<String> = ["content-encoding", "transfer-encoding"]
        if recorded["Content-Encoding"] != nil { dropped.insert("content-length") }
        return HTTPHeaders(allFields: recorded.filter { !dropped.contains($0.name.lowercased()) })
    }
}
