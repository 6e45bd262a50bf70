import Foundation

/// Lays out `multipart/form-data` (RFC 7578) as segments: part headers in memory, file parts by
/// reference so they are streamed, never loaded.
package enum MultipartEncoder {
    package static func encode(_ parts: [MultipartPart], target: String, boundary: String = makeBoundary()) throws(NetworkError) -> MultipartBody {
        var segments: [BodySegment] = []
        var length: Int64 = 0
        var pending = Data()
        func flush() {
            if !pending.isEmpty {
                segments.append(.data(pending))
                pending = Data()
            }
        }
        for part in parts {
            if let mimeType = part.mimeType, mimeType.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw .encodingFailed(
                    target: target,
                    reason: "the content type of multipart part \"\(part.name)\" contains a control character (a line break would inject headers)")
            }
            pending.append(Data(header(for: part, boundary: boundary).utf8))
            switch part.source {
            case .data(let data):
                pending.append(data)
            case .file(let url):
                length += try checkReadable(url, target: target)
                flush()
                segments.append(.file(url))
            }
            pending.append(Data("\r\n".utf8))
        }
        pending.append(Data("--\(boundary)--\r\n".utf8))
        flush()
        for segment in segments { if case .data(let data) = segment { length += Int64(data.count) } }
        return MultipartBody(boundary: boundary, segments: segments, contentLength: length)
    }

    /// Checks that `url` is a readable regular file and returns its size.
    @discardableResult
    package static func checkReadable(_ url: URL, target: String) throws(NetworkError) -> Int64 {
        guard url.isFileURL else {
            throw .unreadableFile(target: target, url: url, reason: "not a file URL")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw .unreadableFile(target: target, url: url, reason: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw .unreadableFile(target: target, url: url, reason: "it is a directory")
        }
        guard FileManager.default.isReadableFile(atPath: url.path),
            let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? NSNumber
        else {
            throw .unreadableFile(target: target, url: url, reason: "permission denied")
        }
        return size.int64Value
    }

    static func makeBoundary() -> String {
        "netkit-" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }

    private static func header(for part: MultipartPart, boundary: String) -> String {
        var disposition = "form-data; name=\"\(escape(part.name))\""
        if let fileName = part.fileName { disposition += "; filename=\"\(escape(fileName))\"" }
        var header = "--\(boundary)\r\nContent-Disposition: \(disposition)\r\n"
        if let mimeType = part.mimeType { header += "Content-Type: \(mimeType)\r\n" }
        return header + "\r\n"
    }

    /// Quotes per the HTML form encoding: `"` and line breaks are percent-escaped. Works scalar
    /// by scalar: a `"` followed by a combining mark is one `Character`, and must still be escaped.
    private static func escape(_ value: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": escaped.append(contentsOf: "%22".unicodeScalars)
            case "\r": escaped.append(contentsOf: "%0D".unicodeScalars)
            case "\n": escaped.append(contentsOf: "%0A".unicodeScalars)
            default: escaped.append(scalar)
            }
        }
        return String(escaped)
    }
}
