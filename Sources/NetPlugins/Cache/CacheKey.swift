import NetToolbox
import Foundation
import NetCore

/// Identifies a cache entry: method, canonical URL (query sorted), SHA-256 of the body, version,
/// chosen header values, an optional caller-supplied component and, when the request carries
/// credentials, their digest.
///
/// The text is `1|METHOD|URL|BODY|vVERSION`, then `|name=value` for each chosen header the request
/// has (name lowercased; `%` and `|` in values and in `DATA` percent-encoded, so no value can
/// imitate another component), then `|s=DATA` for the caller's component, then `|c=DIGEST` when the
/// request has credential headers. `URL` is the canonical URL (fragment removed, query items
/// sorted by their bytes, encoding kept); `BODY` is the SHA-256 of the body in hexadecimal
/// (empty for no body). `DIGEST` is the SHA-256, in hexadecimal, of one line `name:value\n` per
/// credential header present, names lowercased and sorted, values exactly as sent: two users
/// never share a key, and no credential appears in the key in clear.
///
/// The key is a plain string, so it is the same in every run and every process; disk storage
/// names files after its SHA-256.
package struct CacheKey: Sendable, Hashable, CustomStringConvertible {
    /// The key text.
    package let rawValue: String

    /// Wraps a key text made elsewhere.
    package init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// Builds the key of `request`.
    ///
    /// - Parameters:
    ///   - request: The request as the cache sees it in `prepare`.
    ///   - version: The cache version; a different version is a different key.
    ///   - headerNames: Request headers whose values become part of the key (`Accept-Language`).
    ///   - sensitiveData: Any extra text the caller wants in the key (a user id, a locale).
    ///   - credentialHeaders: Request headers (any case) that identify the user; when the request
    ///     has any, the key ends with their digest. Default: none (``CachePlugin`` passes
    ///     `Authorization`, `Cookie`, `Proxy-Authorization` and its own `credentialHeaders`).
    /// - Returns: `nil` when the body cannot be hashed without reading files (file uploads,
    ///   multipart with files): such requests are not cached.
    package init?(
        request: Request, version: Int = 0, headerNames: [String] = [], sensitiveData: String? = nil,
        credentialHeaders: Set<String> = []
    ) {
        let digest = credentialHeaders.isEmpty ? nil : CredentialHeaders(exactly: credentialHeaders).digest(of: request.headers)
        self.init(
            request: request, version: version, headerNames: headerNames, sensitiveData: sensitiveData,
            credentialDigest: digest)
    }

    /// Builds the key of `request`, ending it with `credentialDigest` (see ``CredentialHeaders``) when given.
    init?(request: Request, version: Int, headerNames: [String], sensitiveData: String?, credentialDigest: String?) {
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
            text += Self.escaped(value)
        }
        if let sensitiveData {
            text += "|s="
            text += Self.escaped(sensitiveData)
        }
        if let digest = credentialDigest {
            text += "|c="
            text += digest
        }
        self.rawValue = text
    }

    /// `text` with `%` and `|` percent-encoded, so a header value or the caller's component can
    /// never end its field early and imitate another component (a credential digest above all).
    private static func escaped(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "|") || $0 == UInt8(ascii: "%") }) else { return text }
        return text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "|", with: "%7C")
    }

    /// The key's SHA-256 in hexadecimal: the disk file name.
    package var digest: String {
        Self.digests.value(for: rawValue) { SHA256.hex(Data($0.utf8)) }
    }

    /// Recent keys' digests: a disk hit repeats its key, and hashing it costs more than the lookup.
    private static let digests = BoundedMemo<String, String>()

    package var description: String { rawValue }

    /// The URL without its fragment, with query items sorted by their bytes (stable order,
    /// original encoding). Works on UTF-8 bytes: `Character` and Foundation searches cost
    /// microseconds on every cache hit.
    static func canonicalURL(_ url: URL) -> String {
        let string = url.absoluteString
        // Nothing to sort or cut: the URL is its own canonical form (no lock, no hashing).
        if !hasQueryOrFragment(string) { return string }
        return canonicalURLs.value(for: string, make: makeCanonical)
    }

    // Perf: Benchmarks row "Cache hits, sequential" (memory cache hit).
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
