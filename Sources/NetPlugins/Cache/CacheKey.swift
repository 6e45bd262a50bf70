import Foundation
import NetCore

/// Identifies a cache entry: method, canonical URL (query sorted), SHA-256 of the body, version,
/// chosen header values and an optional caller-supplied component.
///
/// The key is a plain string, so it is the same in every run and every process; disk storage
/// names files after its SHA-256.
public struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The key text.
    public let rawValue: String

    /// Wraps a key text made elsewhere.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Builds the key of `request`.
    ///
    /// - Parameters:
    ///   - request: The request as the cache sees it in `prepare`.
    ///   - version: The cache version; a different version is a different key.
    ///   - headerNames: Request headers whose values become part of the key (`Accept-Language`).
    ///   - sensitiveData: Any extra text the caller wants in the key (a user id, a locale).
    /// - Returns: `nil` when the body cannot be hashed without reading files (file uploads,
    ///   multipart with files): such requests are not cached.
    public init?(request: Request, version: Int = 0, headerNames: [String] = [], sensitiveData: String? = nil) {
        var text = "1|"
        text += request.method.rawValue
        text += "|"
        text += Self.canonicalURL(request.url)
        text += "|"
        switch request.body {
        case .none:
            break
        case .data(let data):
            if !data.isEmpty { text += SHA256.hex(data) }
        case .file:
            return nil
        case .multipart(let body):
            guard let data = body.inMemoryData else { return nil }
            text += SHA256.hex(data)
        }
        text += "|v"
        text += String(version)
        for name in headerNames {
            guard let value = request.headers[name] else { continue }
            text += "|"
            text += name.lowercased()
            text += "="
            text += value
        }
        if let sensitiveData {
            text += "|s="
            text += sensitiveData
        }
        self.rawValue = text
    }

    /// The key's SHA-256 in hexadecimal: the disk file name.
    public var digest: String { SHA256.hex(Data(rawValue.utf8)) }

    public var description: String { rawValue }

    /// The URL without its fragment, with query items sorted (stable order, original encoding).
    static func canonicalURL(_ url: URL) -> String {
        var string = url.absoluteString
        if let hash = string.firstIndex(of: "#") { string = String(string[..<hash]) }
        guard let question = string.firstIndex(of: "?") else { return string }
        let query = string[string.index(after: question)...]
        if !query.contains("&") { return string }
        let items = query.split(separator: "&", omittingEmptySubsequences: true).sorted()
        return string[...question] + items.joined(separator: "&")
    }
}
