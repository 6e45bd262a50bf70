import NetToolbox
import Foundation
import NetCore

/// Reads a HAR document into ``RecordedExchange``s, failing with a ``NetworkError`` that names
/// the file and the place that is wrong.
enum HARReader {
    /// The entries of `data`, in file order.
    /// - Parameters:
    ///   - name: How errors name the document (its path, usually).
    ///   - firstIndex: The ``RecordedExchange/index`` of the first entry (for entries appended
    ///     to a file that already holds some).
    static func exchanges(from data: Data, name: String, firstIndex: Int = 0) throws(NetworkError) -> [RecordedExchange] {
        let document: HARDocument
        do {
            document = try JSONDecoder().decode(HARDocument.self, from: data)
        } catch let error as DecodingError {
            throw malformed(name, keyPath: keyPath(of: error), reason: describe(error), data: data)
        } catch {
            throw malformed(name, keyPath: nil, reason: String(describing: error), data: data)
        }
        return try exchanges(in: document, name: name, firstIndex: firstIndex, data: data)
    }

    /// The entries of a decoded `document`, in order (`data`, its text, shows in errors).
    static func exchanges(in document: HARDocument, name: String, firstIndex: Int = 0, data: Data) throws(NetworkError) -> [RecordedExchange] {
        if let version = document.log.version, !version.hasPrefix("1.") {
            throw malformed(name, keyPath: "log.version", reason: "version \(version) is not HAR 1.x", data: data)
        }
        var exchanges: [RecordedExchange] = []
        exchanges.reserveCapacity(document.log.entries.count)
        for (index, entry) in document.log.entries.enumerated() where !isCacheAnswer(entry.comment) {
            exchanges.append(try exchange(entry, index: firstIndex + index, name: name, data: data))
        }
        return exchanges
    }

    /// Whether `entry` was answered by NetKit's cache when it was recorded (``CapturePlugin``
    /// notes the source in the comment): such answers never reached the transport, so a replay
    /// does not hand them out.
    static func isCacheAnswer(_ comment: String?) -> Bool {
        comment?.hasPrefix("attempt ") == true && comment?.hasSuffix(", source cache") == true
    }

    private static func exchange(_ entry: HARDocument.Entry, index: Int, name: String, data: Data) throws(NetworkError) -> RecordedExchange {
        let path = "log.entries.\(index)"
        guard let url = URL(string: entry.request.url), url.scheme != nil else {
            throw malformed(name, keyPath: path + ".request.url", reason: "not an absolute URL", data: data)
        }
        let response = entry.response
        let body: Data
        do {
            body = try responseBody(response.content)
        } catch {
            throw malformed(name, keyPath: path + ".response.content.text", reason: "the text is not valid base64", data: data)
        }
        let timing = ReplayTiming(time: entry.time, timings: entry.timings)
        var messages: [RecordedWebSocketMessage]?
        if let recorded = entry._webSocketMessages {
            messages = []
            for (position, message) in recorded.enumerated() {
                do {
                    if let (direction, message) = try message.decoded() {
                        messages?.append(RecordedWebSocketMessage(direction: direction, message: message))
                    }
                } catch {
                    throw malformed(
                        name, keyPath: path + "._webSocketMessages.\(position).data", reason: "binary data that is not valid base64",
                        data: data)
                }
            }
        }
        var exchange = RecordedExchange(
            index: index, method: HTTPMethod(rawValue: entry.request.method.uppercased()), url: url,
            requestHeaders: headers(entry.request.headers), requestBody: requestBody(entry.request.postData),
            statusCode: response.status > 0 ? response.status : nil, responseHeaders: headers(response.headers),
            responseBody: body, error: response._error ?? entry._error, duration: timing.duration,
            connectDuration: timing.connect, timeToFirstByte: timing.firstByte,
            httpVersion: response.httpVersion.flatMap { $0.isEmpty ? nil : $0 }, matchURL: ReplayURL(url)
        )
        exchange.webSocketMessages = messages
        return exchange
    }

    /// Header fields in order, without HTTP/2 pseudo-headers (`:authority`, `:path`, …).
    private static func headers(_ fields: [HARDocument.NameValue]?) -> HTTPHeaders {
        HTTPHeaders(allFields: (fields ?? []).filter { !$0.name.hasPrefix(":") }.map { .init(name: $0.name, value: $0.value ?? "") })
    }

    private struct InvalidBase64: Error {}

    private static func responseBody(_ content: HARDocument.Content?) throws -> Data {
        guard let text = content?.text else { return Data() }
        guard content?.encoding?.lowercased() == "base64" else { return Data(text.utf8) }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else { throw InvalidBase64() }
        return data
    }

    /// `postData.text`, or the `params` form-encoded when only they were recorded.
    private static func requestBody(_ postData: HARDocument.PostData?) -> Data? {
        guard let postData else { return nil }
        if let text = postData.text { return Data(text.utf8) }
        guard let params = postData.params, !params.isEmpty else { return nil }
        let pairs = params.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value ?? "") }
        return Data(pairs.joined(separator: "&").utf8)
    }

    private static func malformed(_ name: String, keyPath: String?, reason: String, data: Data) -> NetworkError {
        // The first characters say what the file really is (an HTML error page, another format)
        // without quoting its entries.
        let start = String(decoding: data.prefix(60), as: UTF8.self)
            .split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return .decodingFailed(
            type: "HAR 1.2 archive \(name)", keyPath: keyPath, reason: reason,
            bodyExcerpt: data.isEmpty ? "(empty file)" : start + (data.count > 60 ? "…" : ""))
    }

    private static func keyPath(of error: DecodingError) -> String? {
        let context: DecodingError.Context? =
            switch error {
            case .keyNotFound(_, let context), .typeMismatch(_, let context), .valueNotFound(_, let context),
                .dataCorrupted(let context):
                context
            @unknown default: nil
            }
        let path = (context?.codingPath ?? []).map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
        return path.isEmpty ? nil : path
    }

    private static func describe(_ error: DecodingError) -> String {
        switch error {
        case .keyNotFound(let key, _): "the required field \"\(key.stringValue)\" is missing"
        case .typeMismatch(let type, _): "expected \(type)"
        case .valueNotFound(let type, _): "null where \(type) is required"
        case .dataCorrupted(let context): "not valid JSON (\(context.debugDescription))"
        @unknown default: String(describing: error)
        }
    }
}
