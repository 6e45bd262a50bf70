import Foundation

/// Remembers the expensive parts of building request URLs: the checked base URL joined with a
/// target's encoded path, and parsed URLs by their text.
///
/// Parsing a URL string and percent-encoding a path cost about two microseconds per request,
/// which is most of what a cache hit costs; apps repeat the same handful of endpoints, so both
/// are looked up instead. Each table is cleared when it reaches ``limit`` entries, which bounds
/// memory without bookkeeping on the hot path.
final class URLMemo: Sendable {
    /// A base URL and a path, joined: the text before any query, and the base URL's own query.
    struct Prefix: Sendable {
        var text: String
        var baseQuery: String?
    }

    private struct Tables {
        var prefixes: [PrefixKey: Prefix] = [:]
        var urls: [String: URL] = [:]
    }

    private struct PrefixKey: Hashable {
        var base: String
        var path: String
    }

    private let tables = Locked(Tables())
    let limit: Int

    init(limit: Int = 512) {
        self.limit = limit
    }

    /// The joined base and path, computed by `make` the first time the pair is seen. Failures
    /// are not remembered: their message names the target, and they are rare.
    func prefix(base: String, path: String, make: () -> Result<Prefix, NetworkError>) -> Result<Prefix, NetworkError> {
        let key = PrefixKey(base: base, path: path)
        if let known = tables.withLock({ $0.prefixes[key] }) { return .success(known) }
        let made = make()
        guard case .success(let prefix) = made else { return made }
        tables.withLock { tables in
            if tables.prefixes.count >= limit { tables.prefixes.removeAll(keepingCapacity: true) }
            tables.prefixes[key] = prefix
        }
        return made
    }

    /// The URL for `text`, parsed the first time it is seen; `nil` when it does not parse.
    func url(for text: String) -> URL? {
        if let known = tables.withLock({ $0.urls[text] }) { return known }
        guard let url = URL(string: text) else { return nil }
        tables.withLock { tables in
            if tables.urls.count >= limit { tables.urls.removeAll(keepingCapacity: true) }
            tables.urls[text] = url
        }
        return url
    }
}
