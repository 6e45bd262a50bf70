import NetToolbox
import NetBase
import Foundation

/// The HTTP/1.1 text of a WebSocket handshake over a raw connection: the request head NetKit
/// writes, and the response head it reads back (bounded), for ``CurlWebSocketLoop``.
enum CurlWebSocketHead {
    /// The most a response head may take before the handshake fails.
    static let maximumHeadSize = 64 * 1024

    /// `GET <path> HTTP/1.1` with `Host` and the request's headers.
    static func request(_ request: Request) -> [UInt8] {
        let url = request.url
        var target = url.path.isEmpty ? "/" : URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedPath ?? url.path
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true), !query.isEmpty { target += "?" + query }
        var host = request.host.contains(":") ? "[\(request.host)]" : request.host
        if let port = url.port, port != defaultPort(forScheme: url.scheme ?? "") { host += ":\(port)" }
        var text = "GET \(target) HTTP/1.1\r\nHost: \(host)\r\n"
        for field in request.headers where field.name.lowercased() != "host" {
            text += "\(field.name): \(field.value)\r\n"
        }
        text += "\r\n"
        return Array(text.utf8)
    }

    /// A parsed response head and the bytes that came after it.
    struct Parsed: Equatable {
        var status: Int
        var headers: HTTPHeaders
        var rest: [UInt8]
    }

    /// The response head at the front of `bytes`, `nil` while it is incomplete.
    /// - Throws: ``NetworkError/invalidResponse(reason:underlying:)`` for a head past
    ///   ``maximumHeadSize`` or one that is not HTTP/1.x.
    static func response(_ bytes: [UInt8]) throws(NetworkError) -> Parsed? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        guard let end = bytes.firstRange(of: terminator)?.lowerBound else {
            if bytes.count > maximumHeadSize {
                throw .invalidResponse(reason: "the WebSocket handshake's response head passed \(maximumHeadSize) bytes")
            }
            return nil
        }
        let text = String(decoding: bytes[..<end], as: UTF8.self)
        var lines = text.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let status = Int(statusLine[1]), (100...999).contains(status) else {
            throw .invalidResponse(reason: "the WebSocket handshake was not answered with an HTTP/1.1 status line")
        }
        var fields: [HTTPHeaders.Field] = []
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else {
                throw .invalidResponse(reason: "the WebSocket handshake's response has a header line without a colon")
            }
            fields.append(
                HTTPHeaders.Field(name: String(line[..<colon]), value: line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)))
        }
        return Parsed(status: status, headers: HTTPHeaders(allFields: fields), rest: Array(bytes[(end + 4)...]))
    }
}
