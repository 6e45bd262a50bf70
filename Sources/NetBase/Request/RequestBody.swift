import Foundation

/// The body of a built ``Request``: nothing, bytes in memory, a file, or a multipart sequence.
///
/// Files are referenced, not loaded: transports stream them.
public enum RequestBody: Sendable {
    case none
    case data(Data)
    case file(URL)
    case multipart(MultipartBody)

    /// The body's length in bytes when known without reading it (`nil` for none).
    package var contentLength: Int64? {
        switch self {
        case .none: nil
        case .data(let data): Int64(data.count)
        case .file(let url): (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? NSNumber)?.int64Value
        case .multipart(let body): body.contentLength
        }
    }

    /// The body's segments in order, for streaming readers.
    package var segments: [BodySegment] {
        switch self {
        case .none: []
        case .data(let data): [.data(data)]
        case .file(let url): [.file(url)]
        case .multipart(let body): body.segments
        }
    }

    /// The whole body in memory, when it holds no files; `nil` otherwise.
    public var inMemoryData: Data? {
        switch self {
        case .none: Data()
        case .data(let data): data
        case .file: nil
        case .multipart(let body): body.inMemoryData
        }
    }
}

/// A run of body bytes: in memory, or a whole file.
package enum BodySegment: Sendable {
    case data(Data)
    case file(URL)
}

/// An encoded `multipart/form-data` body as segments (headers in memory, file parts by reference).
public struct MultipartBody: Sendable {
    /// The boundary between parts.
    package let boundary: String
    /// The segments, in wire order.
    package let segments: [BodySegment]
    /// The total length in bytes.
    package let contentLength: Int64

    /// The `Content-Type` header value, with the boundary.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The body as one `Data` when no part is a file.
    package var inMemoryData: Data? {
        var data = Data()
        for segment in segments {
            guard case .data(let bytes) = segment else { return nil }
            data.append(bytes)
        }
        return data
    }

    /// Lays out `parts` as a `multipart/form-data` body, as ``RequestContent/multipart(_:)`` does,
    /// for a plugin that rebuilds a request's body in ``Plugin/prepare(_:)``. Set the request's
    /// `Content-Type` to ``contentType`` with it. File parts are checked now and streamed later.
    ///
    /// ```swift
    /// guard case .multipart(let parts) = request.originalTarget.content else { return .proceed }
    /// let body = try MultipartBody(parts: parts + [MultipartPart(name: "device", value: deviceID)])
    /// request.body = .multipart(body)
    /// request.headers["Content-Type"] = body.contentType
    /// ```
    ///
    /// - Throws: ``NetworkError/unreadableFile(target:url:reason:underlying:)`` for a file part that cannot be
    ///   read, ``NetworkError/encodingFailed(target:reason:underlying:)`` for a content type with a
    ///   line break.
    package init(parts: [MultipartPart]) throws(NetworkError) {
        self = try MultipartEncoder.encode(parts, target: "multipart body")
    }

    init(boundary: String, segments: [BodySegment], contentLength: Int64) {
        self.boundary = boundary
        self.segments = segments
        self.contentLength = contentLength
    }
}
