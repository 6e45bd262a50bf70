import Foundation

/// What a target's request carries. Moya calls this `task`; NetKit avoids the clash with Swift's `Task`.
public enum RequestContent: Sendable {
    /// No body and no extra query.
    case plain
    /// URL query parameters (for any method).
    case query(Parameters)
    /// A raw body with its content type.
    case data(Data, contentType: String)
    /// A body encoded with the provider's `JSONEncoder` (`application/json`).
    case json(any Encodable & Sendable)
    /// An `application/x-www-form-urlencoded` body.
    case form(Parameters)
    /// Parameters where Alamofire's `URLEncoding.default` (and so Moya's
    /// `.requestParameters(parameters:encoding: URLEncoding.default)`) puts them: the URL query for
    /// `GET`, `HEAD` and `DELETE`, an `application/x-www-form-urlencoded` body for any other method.
    case parameters(Parameters)
    /// A `multipart/form-data` body; file parts are streamed from disk, never loaded whole.
    case multipart([MultipartPart])
    /// A body streamed from a file.
    case file(URL, contentType: String)
    /// A download streamed to `to`. Intermediate directories are created, and an existing file
    /// is replaced only when the download succeeds. `resumable` continues a partial download
    /// where the transport supports it (``TransportCapabilities/resumableDownload``).
    case download(to: URL, resumable: Bool)
    /// A download whose destination depends on the response (Moya's and Alamofire's destination
    /// closure): the body goes to a temporary file, and once a 2xx response is complete
    /// `destination` picks the final location from it (for example its
    /// ``Response/suggestedFilename``); folders are created and an existing file is replaced. A
    /// failed or non-2xx response never reaches the closure or the destination.
    case downloadTo(@Sendable (Response) -> URL)
    /// Any other content plus URL query parameters (Moya's composite cases).
    indirect case withQuery(RequestContent, Parameters)

    /// This content with `parameters` added to the URL query.
    public func addingQuery(_ parameters: Parameters) -> RequestContent {
        if case .withQuery(let inner, let existing) = self {
            return .withQuery(inner, existing.merging(parameters))
        }
        return .withQuery(self, parameters)
    }
}

/// One part of a `multipart/form-data` body: in-memory data or a file streamed from disk.
public struct MultipartPart: Sendable {
    /// Where a part's bytes come from.
    public enum Source: Sendable {
        case data(Data)
        case file(URL)
    }

    /// The form field name.
    public var name: String
    /// The bytes.
    public var source: Source
    /// The file name sent in `Content-Disposition`, if any.
    public var fileName: String?
    /// The part's `Content-Type`, if any.
    public var mimeType: String?

    /// A part from memory.
    public init(name: String, data: Data, fileName: String? = nil, mimeType: String? = nil) {
        self.name = name
        self.source = .data(data)
        self.fileName = fileName
        self.mimeType = mimeType
    }

    /// A part streamed from a file. `fileName` defaults to the file's name and `mimeType` is
    /// guessed from its extension.
    public init(name: String, fileURL: URL, fileName: String? = nil, mimeType: String? = nil) {
        self.name = name
        self.source = .file(fileURL)
        self.fileName = fileName ?? fileURL.lastPathComponent
        self.mimeType = mimeType ?? MimeType.guess(forPathExtension: fileURL.pathExtension)
    }

    /// A plain text field.
    public init(name: String, value: String) {
        self.init(name: name, data: Data(value.utf8))
    }
}

enum MimeType {
    static func guess(forPathExtension ext: String) -> String {
        switch ext.lowercased() {
        case "txt": "text/plain"
        case "json": "application/json"
        case "html", "htm": "text/html"
        case "csv": "text/csv"
        case "xml": "application/xml"
        case "png": "image/png"
        case "jpg", "jpeg": "image/jpeg"
        case "gif": "image/gif"
        case "pdf": "application/pdf"
        case "zip": "application/zip"
        default: "application/octet-stream"
        }
    }
}
