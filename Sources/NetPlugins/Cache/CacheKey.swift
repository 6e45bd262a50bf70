import Foundation
import NetCore
import Synchronization

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
        let url = Self.canonicalURL(request.url)
        var text = ""
        text.reserveCapacity(url.utf8.count + 96 + (sensitiveData?.utf8.count ?? 0))
        text += "1|"
        text += request.method.rawValue
        text += "|"
        text += url
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
    public var digest: String {
        Self.digests.value(for: rawValue) { SHA256.hex(Data($0.utf8)) }
    }

    /// Recent keys' digests: a disk hit repeats its key, and hashing it costs more than the lookup.
    private static let digests = BoundedMemo<String, String>()

    public var description: String { rawValue }

    /// The URL without its fragment, with query items sorted by their bytes (stable order,
    /// original encoding). Works on UTF-8 bytes: `Character` and Foundation searches cost
    /// microseconds on every cache hit.
    static func canonicalURL(_ url: URL) -> String {
        let string = url.absoluteString
        // Nothing to sort or cut: the URL is its own canonical form (no lock, no hashing).
        if !hasQueryOrFragment(string) { return string }
        return canonicalURLs.value(for: string, make: makeCanonical)
    }

    /// Whether `string` contains `?` or `#`, scanning its UTF-8 bytes directly (a native
    /// string's contiguous storage; the generic `utf8.contains` is several times slower).
    private static func hasQueryOrFragment(_ string: String) -> Bool {
        var string = string
        return string.withUTF8 { bytes in
            bytes.contains { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        }
    }

    /// Recently canonicalised URLs (a hit repeats the same URL; sorting its query every time
    /// would cost more than the lookup).
    private static let canonicalURLs = BoundedMemo<String, String>()

    private static func makeCanonical(_ string: String) -> String {
        let utf8 = string.utf8
        let end = utf8.firstIndex(of: UInt8(ascii: "#")) ?? utf8.endIndex
        guard let question = utf8[..<end].firstIndex(of: UInt8(ascii: "?")) else {
            return end == utf8.endIndex ? string : String(string[..<end])
        }
        let queryStart = utf8.index(after: question)
        let query = utf8[queryStart..<end]
        guard query.contains(UInt8(ascii: "&")) else {
            return end == utf8.endIndex ? string : String(string[..<end])
        }
        let items = query.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
            .sorted { $0.lexicographicallyPrecedes($1) }
        var result = String(string[..<queryStart])
        for (offset, item) in items.enumerated() {
            if offset > 0 { result += "&" }
            result += String(Substring(item))
        }
        return result
    }
}
