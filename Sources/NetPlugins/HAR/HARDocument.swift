import Foundation

/// A HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/): what ``CapturePlugin``
/// exports and ``ReplayTransport`` reads, one model for both.
///
/// Writing (``init(exchanges:)`` in `HARDocument+Capture.swift`) fills every field HAR 1.2
/// requires; optional fields that are `nil` are left out and custom fields start with `_`.
/// Reading is lenient, so archives exported by Chrome, Firefox, Safari and ``CapturePlugin`` all
/// load: only `log.entries[].request.method`, `.request.url` and `.response.status` are
/// required, explicit `null`s read as missing, unknown fields (`pages`, `_initiator`,
/// `serverIPAddress`, …) are ignored, and so is a value of an unexpected type in a field replay
/// does not read (cookies, sizes, `statusText`, `redirectURL`, `cache`, `connection`, `ssl`).
struct HARDocument: Codable {
    var log: Log

    struct Log: Codable {
        var version: String?
        var creator: NameVersion?
        var entries: [Entry]
    }

    struct NameVersion: Codable {
        var name: String
        var version: String
    }

    /// A header, cookie, query or form field; `value` is optional because a form field that is a
    /// file carries `fileName` instead.
    struct NameValue: Codable {
        var name: String
        var value: String?
    }

    struct Entry: Codable {
        var startedDateTime: String?
        var time: Double?
        var request: Request
        var response: Response
        var cache: Cache?
        var timings: Timings?
        var connection: String?
        var comment: String?
        var _error: String?
        /// A WebSocket's messages (Chrome's extension; see `HARDocument+WebSocket.swift`).
        var _webSocketMessages: [WebSocketMessage]? = nil
    }

    /// HAR's `cache` object; NetKit writes it empty and reads nothing from it.
    struct Cache: Codable {}

    struct Request: Codable {
        var method: String
        var url: String
        var httpVersion: String?
        var cookies: [NameValue]?
        var headers: [NameValue]?
        var queryString: [NameValue]?
        var postData: PostData?
        var headersSize: Int?
        var bodySize: Int?
    }

    struct PostData: Codable {
        var mimeType: String?
        var params: [NameValue]?
        var text: String?
    }

    struct Response: Codable {
        var status: Int
        var statusText: String?
        var httpVersion: String?
        var cookies: [NameValue]?
        var headers: [NameValue]?
        var content: Content?
        var redirectURL: String?
        var headersSize: Int?
        var bodySize: Int?
        var _error: String?
    }

    struct Content: Codable {
        var size: Int?
        var mimeType: String?
        var text: String?
        var encoding: String?
    }

    /// Phase durations in milliseconds; `-1` (or absent) means "does not apply".
    struct Timings: Codable {
        var blocked: Double?
        var dns: Double?
        var connect: Double?
        var send: Double?
        var wait: Double?
        var receive: Double?
        var ssl: Double?
    }
}

// Lenient reading of the fields replay does not use (the rest is the synthesized decoding).

extension HARDocument.Log {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        creator = container.unread(HARDocument.NameVersion.self, forKey: .creator)
        entries = try container.decode([HARDocument.Entry].self, forKey: .entries)
    }
}

extension HARDocument.Entry {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        startedDateTime = try container.decodeIfPresent(String.self, forKey: .startedDateTime)
        time = try container.decodeIfPresent(Double.self, forKey: .time)
        request = try container.decode(HARDocument.Request.self, forKey: .request)
        response = try container.decode(HARDocument.Response.self, forKey: .response)
        cache = container.unread(HARDocument.Cache.self, forKey: .cache)
        timings = try container.decodeIfPresent(HARDocument.Timings.self, forKey: .timings)
        connection = container.unread(String.self, forKey: .connection)
        comment = try container.decodeIfPresent(String.self, forKey: .comment)
        _error = try container.decodeIfPresent(String.self, forKey: ._error)
        _webSocketMessages = try container.decodeIfPresent([HARDocument.WebSocketMessage].self, forKey: ._webSocketMessages)
    }
}

extension HARDocument.Request {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        method = try container.decode(String.self, forKey: .method)
        url = try container.decode(String.self, forKey: .url)
        httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion)
        cookies = container.unread([HARDocument.NameValue].self, forKey: .cookies)
        headers = try container.decodeIfPresent([HARDocument.NameValue].self, forKey: .headers)
        queryString = container.unread([HARDocument.NameValue].self, forKey: .queryString)
        postData = try container.decodeIfPresent(HARDocument.PostData.self, forKey: .postData)
        headersSize = container.unread(Int.self, forKey: .headersSize)
        bodySize = container.unread(Int.self, forKey: .bodySize)
    }
}

extension HARDocument.Response {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(Int.self, forKey: .status)
        statusText = container.unread(String.self, forKey: .statusText)
        httpVersion = try container.decodeIfPresent(String.self, forKey: .httpVersion)
        cookies = container.unread([HARDocument.NameValue].self, forKey: .cookies)
        headers = try container.decodeIfPresent([HARDocument.NameValue].self, forKey: .headers)
        content = try container.decodeIfPresent(HARDocument.Content.self, forKey: .content)
        redirectURL = container.unread(String.self, forKey: .redirectURL)
        headersSize = container.unread(Int.self, forKey: .headersSize)
        bodySize = container.unread(Int.self, forKey: .bodySize)
        _error = try container.decodeIfPresent(String.self, forKey: ._error)
    }
}

extension HARDocument.Content {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        size = container.unread(Int.self, forKey: .size)
        mimeType = try container.decodeIfPresent(String.self, forKey: .mimeType)
        text = try container.decodeIfPresent(String.self, forKey: .text)
        encoding = try container.decodeIfPresent(String.self, forKey: .encoding)
    }
}

extension HARDocument.Timings {
    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        blocked = try container.decodeIfPresent(Double.self, forKey: .blocked)
        dns = try container.decodeIfPresent(Double.self, forKey: .dns)
        connect = try container.decodeIfPresent(Double.self, forKey: .connect)
        send = try container.decodeIfPresent(Double.self, forKey: .send)
        wait = try container.decodeIfPresent(Double.self, forKey: .wait)
        receive = try container.decodeIfPresent(Double.self, forKey: .receive)
        ssl = container.unread(Double.self, forKey: .ssl)
    }
}

extension KeyedDecodingContainer {
    /// A field replay does not read: its value when present and of the expected type, otherwise
    /// `nil`, so an exporter's unusual spelling of it never fails the whole archive.
    fileprivate func unread<T: Decodable>(_ type: T.Type, forKey key: Key) -> T? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}
