import Foundation
import NetCore

/// A stored response with the metadata the cache needs to judge it.
package struct CacheEntry: Sendable, Equatable {
    /// The status code (2xx; under ``CachePolicy/http`` any status the RFC lets a cache store).
    package var statusCode: Int
    /// The response headers.
    package var headers: HTTPHeaders {
        didSet { agedHeaders = AgedHeaders(headers) }
    }
    /// The body.
    package var data: Data
    /// When the response was stored or last revalidated.
    package var storedAt: Date
    /// The cache version it was stored under.
    package var version: Int
    /// The longest the entry stays fresh by the response's own `Cache-Control` (`max-age`, or 0
    /// for `no-cache`); `nil` means the response set no limit. The policy's age limit applies too.
    package var maxAge: Duration?
    /// The request-header values the response's `Vary` names, as the request that fetched it had
    /// them. An entry whose `Vary` names a header missing here never matches (see ``VaryingHeader``).
    package var varyingHeaders: [VaryingHeader]
    /// ``headers`` with the `Age` of a hit, shared by the copies of this entry (not part of `==`).
    private(set) var agedHeaders: AgedHeaders

    /// Creates an entry.
    package init(
        statusCode: Int, headers: HTTPHeaders, data: Data, storedAt: Date, version: Int = 0,
        maxAge: Duration? = nil, varyingHeaders: [VaryingHeader] = []
    ) {
        self.statusCode = statusCode
        self.headers = headers
        self.agedHeaders = AgedHeaders(headers)
        self.data = data
        self.storedAt = storedAt
        self.version = version
        self.maxAge = maxAge
        self.varyingHeaders = varyingHeaders
    }

    /// The entity tag, from the `ETag` header.
    package var etag: String? { headers["ETag"] }
    /// The `Last-Modified` header.
    package var lastModified: String? { headers["Last-Modified"] }

    /// How old the entry is at `now` (never negative).
    package func age(at now: Date) -> Duration {
        let seconds = max(0, now.timeIntervalSince(storedAt))
        return Duration(seconds: seconds, roundedToNanoseconds: .towardZero)
    }

    /// Whether the entry is past `limit` (and its own ``maxAge``) at `now`.
    package func isExpired(at now: Date, limit: Duration?) -> Bool {
        let effective: Duration? =
            switch (limit, maxAge) {
            case (nil, nil): nil
            case (let a?, nil): a
            case (nil, let b?): b
            case (let a?, let b?): min(a, b)
            }
        guard let effective else { return false }
        return age(at: now) >= effective
    }

    /// Approximate memory cost in bytes: body, headers, varying values and a fixed overhead.
    package var cost: Int {
        var bytes = data.count + 128
        for field in headers { bytes += field.name.utf8.count + field.value.utf8.count + 16 }
        for varying in varyingHeaders { bytes += varying.name.utf8.count + (varying.value?.utf8.count ?? 0) + 16 }
        return bytes
    }

    /// Entries are equal when every stored field is.
    package static func == (lhs: CacheEntry, rhs: CacheEntry) -> Bool {
        lhs.statusCode == rhs.statusCode && lhs.headers == rhs.headers && lhs.data == rhs.data
            && lhs.storedAt == rhs.storedAt && lhs.version == rhs.version && lhs.maxAge == rhs.maxAge
            && lhs.varyingHeaders == rhs.varyingHeaders
    }
}
