import NetRedaction
import Foundation
import NetCore

/// Building a HAR document from captured exchanges, which are already redacted (URLs, headers,
/// bodies, errors): the document adds no value of its own that was not redacted.
extension HARDocument {
    init(exchanges: [CapturedExchange]) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        log = Log(
            version: "1.2", creator: NameVersion(name: "NetKit", version: "1.0"),
            entries: exchanges.map { Self.entry($0, formatter: formatter) })
    }

    /// The document as pretty-printed JSON with sorted keys.
    func encoded() throws(NetworkError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return try encoder.encode(self)
        } catch {
            throw .encodingFailed(target: "HAR export", reason: String(describing: error), underlying: error)
        }
    }

    private static func entry(_ exchange: CapturedExchange, formatter: ISO8601DateFormatter) -> Entry {
        let httpVersion = exchange.metrics?.httpVersion ?? "HTTP/1.1"
        let (timings, total) = timings(exchange)
        let requestType = exchange.requestHeaders["Content-Type"]
        let postData = exchange.requestBody.flatMap { body -> PostData? in
            body.isEmpty
                ? nil
                : PostData(
                    mimeType: requestType ?? "application/octet-stream", params: formParams(body, contentType: requestType),
                    text: text(of: body).text)
        }
        let request = Request(
            method: exchange.method.rawValue, url: exchange.url, httpVersion: httpVersion,
            cookies: requestCookies(exchange.requestHeaders), headers: nameValues(exchange.requestHeaders),
            queryString: queryItems(exchange.url), postData: postData, headersSize: -1,
            bodySize: exchange.requestBody?.count ?? Int(exchange.metrics?.bytesSent ?? 0)
        )
        let responseType = exchange.responseHeaders["Content-Type"]
        let body = text(of: exchange.responseBody)
        let response = Response(
            status: exchange.statusCode ?? 0, statusText: exchange.statusCode.map(ReasonPhrase.text) ?? "",
            httpVersion: exchange.statusCode == nil ? "" : httpVersion,
            cookies: responseCookies(exchange.responseHeaders), headers: nameValues(exchange.responseHeaders),
            content: Content(
                size: exchange.responseBody.count,
                mimeType: responseType ?? (exchange.responseBody.isEmpty ? "x-unknown" : "application/octet-stream"),
                text: exchange.responseBody.isEmpty ? nil : body.text, encoding: body.base64 ? "base64" : nil),
            redirectURL: exchange.responseHeaders["Location"] ?? "", headersSize: -1,
            bodySize: exchange.statusCode == nil ? -1 : Int(exchange.metrics?.bytesReceived ?? Int64(exchange.responseBody.count))
        )
        var comment = "attempt \(exchange.attempt), source \(exchange.source?.rawValue ?? "none")"
        if exchange.droppedWebSocketMessages > 0 {
            comment += "; \(exchange.droppedWebSocketMessages) WebSocket messages not kept (over the capture's byte limit)"
        }
        return Entry(
            startedDateTime: formatter.string(from: exchange.startDate), time: total, request: request, response: response,
            cache: Cache(), timings: timings, connection: nil, comment: comment, _error: exchange.error,
            _webSocketMessages: exchange.isWebSocket ? exchange.webSocketMessages.map(WebSocketMessage.init) : nil
        )
    }

    /// Splits the duration into HAR phases, and their sum (the entry's `time`).
    private static func timings(_ exchange: CapturedExchange) -> (Timings, total: Double) {
        let total = max(0, exchange.duration.milliseconds)
        var timings = Timings(blocked: -1, dns: -1, connect: -1, send: 0, wait: total, receive: 0, ssl: -1)
        guard let metrics = exchange.metrics, let firstByte = metrics.timeToFirstByte?.milliseconds else {
            return (timings, total)
        }
        let connect = min(max(0, metrics.connectDuration?.milliseconds ?? 0), total)
        let wait = min(max(0, firstByte - connect), total - connect)
        let receive = max(0, total - connect - wait)
        timings.wait = wait
        timings.receive = receive
        if metrics.connectDuration != nil { timings.connect = connect }
        return (timings, wait + receive + (metrics.connectDuration != nil ? connect : 0))
    }

    private static func text(of data: Data) -> (text: String, base64: Bool) {
        if let string = String(data: data, encoding: .utf8) { return (string, false) }
        return (data.base64EncodedString(), true)
    }

    /// The fields of an (already redacted) form body, decoded, for HAR's `postData.params`.
    private static func formParams(_ body: Data, contentType: String?) -> [NameValue] {
        guard SecretRedactor.format(contentType: contentType, body: body) == .form,
            let text = String(data: body, encoding: .utf8)
        else { return [] }
        return FormFields.decode(text).map { NameValue(name: $0.name, value: $0.value) }
    }

    private static func nameValues(_ headers: HTTPHeaders) -> [NameValue] {
        headers.map { NameValue(name: $0.name, value: $0.value) }
    }

    private static func queryItems(_ url: String) -> [NameValue] {
        (URLComponents(string: url)?.queryItems ?? []).map { NameValue(name: $0.name, value: $0.value ?? "") }
    }

    /// Cookie names from `Cookie`; the values stay whatever the (redacted) header says.
    private static func requestCookies(_ headers: HTTPHeaders) -> [NameValue] {
        guard let header = headers["Cookie"] else { return [] }
        if header == Redaction.placeholder { return [NameValue(name: Redaction.placeholder, value: Redaction.placeholder)] }
        return header.split(separator: ";").compactMap { pair in
            let parts = pair.split(separator: "=", maxSplits: 1)
            guard let name = parts.first else { return nil }
            return NameValue(name: name.trimmingCharacters(in: .whitespaces), value: parts.count > 1 ? String(parts[1]) : "")
        }
    }

    /// One cookie per `Set-Cookie` field: its name and value (attributes left out).
    private static func responseCookies(_ headers: HTTPHeaders) -> [NameValue] {
        headers.values(for: "Set-Cookie").map { field in
            if field == Redaction.placeholder { return NameValue(name: Redaction.placeholder, value: Redaction.placeholder) }
            let pair = field.split(separator: ";").first ?? ""
            let parts = pair.split(separator: "=", maxSplits: 1)
            return NameValue(name: parts.first.map(String.init) ?? "", value: parts.count > 1 ? String(parts[1]) : "")
        }
    }
}
