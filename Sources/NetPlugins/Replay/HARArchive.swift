import Foundation

/// The parts of a HAR 1.2 document (http://www.softwareishard.com/blog/har-12-spec/) that replay
/// needs, decoded leniently: only `log.entries[].request.method`, `.request.url` and
/// `.response.status` are required. Everything else is optional, unknown fields (`pages`,
/// `_initiator`, `_resourceType`, `cache`, `serverIPAddress`, …) are ignored, and explicit `null`s
/// read as missing, so archives exported by Chrome, Firefox, Safari and ``CapturePlugin`` all load.
struct HARArchive: Decodable {
    struct Log: Decodable {
        var version: String?
        var entries: [Entry]
    }

    struct NameValue: Decodable {
        var name: String
        var value: String?
    }

    struct Entry: Decodable {
        var startedDateTime: String?
        var time: Double?
        var request: Request
        var response: Response
        var timings: Timings?
        var comment: String?
        var _error: String?
    }

    struct Request: Decodable {
        var method: String
        var url: String
        var httpVersion: String?
        var headers: [NameValue]?
        var postData: PostData?
    }

    struct PostData: Decodable {
        var mimeType: String?
        var params: [Param]?
        var text: String?
    }

    /// A `postData.params` item: `value` is optional because file fields carry `fileName` instead.
    struct Param: Decodable {
        var name: String
        var value: String?
    }

    struct Response: Decodable {
        var status: Int
        var httpVersion: String?
        var headers: [NameValue]?
        var content: Content?
        var _error: String?
    }

    struct Content: Decodable {
        var mimeType: String?
        var text: String?
        var encoding: String?
    }

    /// Phase durations in milliseconds; `-1` (or absent) means "does not apply".
    struct Timings: Decodable {
        var blocked: Double?
        var dns: Double?
        var connect: Double?
        var send: Double?
        var wait: Double?
        var receive: Double?
    }

    var log: Log
}
