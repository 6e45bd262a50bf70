#if canImport(FoundationNetworking)
    import NetToolbox
    import FoundationNetworking
#endif
import Foundation
import NetBase

/// The ``Response`` an ended task becomes, or why it is not one.
extension Exchange {
    func result(data: Data, fileURL: URL?, response: URLResponse?, error: (any Error)?) -> Result<Response, NetworkError> {
        let (stopReason, challenged) = state.withLock { ($0.machine.stopReason, $0.challengeResponse) }
        if let stopReason { return .failure(stopReason.error) }
        var response = response
        if let error {
            guard let challenged, (error as? URLError)?.code == .cancelled else {
                return .failure(URLErrorMapping.map(error, host: request.host))
            }
            response = challenged
        }
        guard let http = response as? HTTPURLResponse else {
            return .failure(.invalidResponse(reason: "the response is not HTTP"))
        }
        let headers = Self.headers(of: http)
        if let truncation = Self.truncation(of: data, headers: headers, status: http.statusCode, method: request.method), fileURL == nil {
            return .failure(truncation)
        }
        var metrics = ResponseMetrics(
            startDate: startDate, duration: clock.now - startInstant,
            bytesSent: request.body.contentLength ?? 0,
            bytesReceived: fileURL.flatMap { try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? NSNumber }?.int64Value
                ?? Int64(data.count)
        )
        state.withLock { $0.collected }?.apply(to: &metrics)
        return .success(
            Response(
                statusCode: http.statusCode, headers: headers, data: data, request: request,
                fileURL: fileURL, source: .network, metrics: metrics))
    }

    /// The response's fields. FoundationNetworking joins repeated fields with `", "` and keeps
    /// no raw lines, so `Set-Cookie` is split again by ``CookieJar/splitJoinedSetCookie(_:)``'s
    /// heuristic into one field per cookie: the only transport where that guess is made.
    private static func headers(of http: HTTPURLResponse) -> HTTPHeaders {
        var headers = HTTPHeaders()
        for (name, value) in http.allHeaderFields {
            let name = String(describing: name), value = String(describing: value)
            if HTTPHeaders.sameName(name, "Set-Cookie") {
                for line in CookieJar.splitJoinedSetCookie(value) { headers.add(name: name, value: line) }
            } else {
                headers[name] = value
            }
        }
        return headers
    }

    /// The head of a streamed response: status, headers, no body.
    func head(of http: HTTPURLResponse) -> Response {
        let metrics = ResponseMetrics(
            startDate: startDate, duration: clock.now - startInstant,
            bytesSent: request.body.contentLength ?? 0, bytesReceived: 0)
        return Response(
            statusCode: http.statusCode, headers: Self.headers(of: http), data: Data(), request: request,
            source: .network, metrics: metrics)
    }

    /// A body shorter than its `Content-Length` (when not compressed) was cut off. Redirects are
    /// exempt: URLSession drops the body of a redirect it was told not to follow.
    private static func truncation(of data: Data, headers: HTTPHeaders, status: Int, method: HTTPMethod) -> NetworkError? {
        guard !StatusRules.hasNoBody(statusCode: status, method: method.rawValue), !(300...399).contains(status), headers["Content-Encoding"] == nil,
            let declared = headers["Content-Length"].flatMap({ Int64($0) }), Int64(data.count) < declared
        else { return nil }
        return .truncatedResponse(expected: declared, received: Int64(data.count))
    }
}
