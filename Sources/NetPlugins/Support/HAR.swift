import Foundation
import NetCore

/// A HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/) built from captured
/// exchanges, which are already redacted (URLs, headers, bodies, errors): the document adds no
/// value of its own that was not redacted. Optional fields that are `nil` are left out; custom
/// fields start with `_`.
struct HARDocument: Encodable {
    struct Log: Encodable {
        var version = "1.2"
        var creator = NameVersion(name: "NetKit", version: "1.0")
        var entries: [Entry]
    }

    struct NameVersion: Encodable {
        var name: String
        var version: String
    }

    struct NameValue: Encodable {
        var name: String
        var value: String
    }

    struct Entry: Encodable {
        var startedDateTime: String
        var time: Double
        var request: HARRequest
        var response: HARResponse
        var cache = Cache()
        var timings: Timings
        var connection: String?
        var comment: String?
        var _error: String?
    }

    struct Cache: Encodable {}

    struct HARRequest: Encodable {
        var method: String
        var url: String
        var httpVersion: String
        var cookies: [NameValue]
        var headers: [NameValue]
        var queryString: [NameValue]
        var postData: PostData?
        var headersSize = -1
        var bodySize: Int
    }

    struct PostData: Encodable {
        var mimeType: String
        var params: [NameValue] = []
        var text: String
    }

    struct HARResponse: Encodable {
        var status: Int
        var statusText: String
        var httpVersion: String
        var cookies: [NameValue]
        var headers: [NameValue]
        var content: Content
        var redirectURL: String
        var headersSize = -1
        var bodySize: Int
    }

    struct Content: Encodable {
        var size: Int
        var mimeType: String
        var text: String?
        var encoding: String?
    }

    struct Timings: Encodable {
        var blocked = -1.0
        var dns = -1.0
        var connect = -1.0
        var send: Double
        var wait: Double
        var receive: Double
        var ssl = -1.0
    }

    var log: Log

    init(exchanges: [CapturedExchange]) {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        log = Log(entries: exchanges.map { Self.entry($0, formatter: formatter) })
    }

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
        let timings = timings(exchange)
        let total = timings.send + timings.wait + timings.receive + max(0, timings.connect)
        let requestType = exchange.requestHeaders["Content-Type"]
        let postData = exchange.requestBody.flatMap { body -> PostData? in
            body.isEmpty
                ? nil
                : PostData(
                    mimeType: requestType ?? "application/octet-stream", params: formParams(body, contentType: requestType),
                    text: text(of: body).text)
        }
        let request = HARRequest(
            method: exchange.method.rawValue, url: exchange.url, httpVersion: httpVersion,
            cookies: requestCookies(exchange.requestHeaders), headers: nameValues(exchange.requestHeaders),
            queryString: queryItems(exchange.url), postData: postData,
            bodySize: exchange.requestBody?.count ?? Int(exchange.metrics?.bytesSent ?? 0)
        )
        let responseType = exchange.responseHeaders["Content-Type"]
        let body = text(of: exchange.responseBody)
        let response = HARResponse(
            status: exchange.statusCode ?? 0, statusText: exchange.statusCode.map(reason) ?? "",
            httpVersion: exchange.statusCode == nil ? "" : httpVersion,
            cookies: responseCookies(exchange.responseHeaders), headers: nameValues(exchange.responseHeaders),
            content: Content(
                size: exchange.responseBody.count, mimeType: responseType ?? (exchange.responseBody.isEmpty ? "x-unknown" : "application/octet-stream"),
                text: exchange.responseBody.isEmpty ? nil : body.text, encoding: body.base64 ? "base64" : nil),
            redirectURL: exchange.responseHeaders["Location"] ?? "",
            bodySize: exchange.statusCode == nil ? -1 : Int(exchange.metrics?.bytesReceived ?? Int64(exchange.responseBody.count))
        )
        return Entry(
            startedDateTime: formatter.string(from: exchange.startDate), time: total, request: request, response: response,
            timings: timings, connection: nil,
            comment: "attempt \(exchange.attempt), source \(exchange.source?.rawValue ?? "none")", _error: exchange.error
        )
    }

    /// Splits the duration into HAR phases; the phases add up to the entry's `time`.
    private static func timings(_ exchange: CapturedExchange) -> Timings {
        let total = max(0, exchange.duration.milliseconds)
        guard let metrics = exchange.metrics, let firstByte = metrics.timeToFirstByte?.milliseconds else {
            return Timings(send: 0, wait: total, receive: 0)
        }
        let connect = min(max(0, metrics.connectDuration?.milliseconds ?? 0), total)
        let wait = min(max(0, firstByte - connect), total - connect)
        var timings = Timings(send: 0, wait: wait, receive: max(0, total - connect - wait))
        if metrics.connectDuration != nil { timings.connect = connect }
        return timings
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
        return text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let decode = { (part: Substring) in PercentEncoding.decode(String(part), plusAsSpace: true) ?? String(part) }
            return NameValue(name: decode(parts[0]), value: parts.count > 1 ? decode(parts[1]) : "")
        }
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

    private static func responseCookies(_ headers: HTTPHeaders) -> [NameValue] {
        guard let header = headers["Set-Cookie"] else { return [] }
        if header == Redaction.placeholder { return [NameValue(name: Redaction.placeholder, value: Redaction.placeholder)] }
        let pair = header.split(separator: ";").first ?? ""
        let parts = pair.split(separator: "=", maxSplits: 1)
        return [NameValue(name: parts.first.map(String.init) ?? "", value: parts.count > 1 ? String(parts[1]) : "")]
    }

    private static func reason(_ status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: ""
        }
    }
}
