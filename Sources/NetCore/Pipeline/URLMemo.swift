import NetToolbox
import NetBase
import Foundation

// Perf: Benchmarks row "Cache hits, sequential" (memory cache hit), where URL building was most of a hit.
/// Remembers the expensive parts of building request URLs: the checked base URL joined with a
/// target's encoded path, and parsed URLs by their text.
///
/// Parsing a URL string and percent-encoding a path cost about two microseconds per request,
/// which is most of what a cache hit costs; apps repeat the same handful of endpoints, so both
/// are looked up instead. Each table is a ``BoundedMemo`` of ``limit`` entries.
final class URLMemo: Sendable {
    /// A base URL and a path, joined: the text before any query, and the base URL's own query.
    struct Prefix: Sendable {
        var text: String
        var baseQuery: String?
    }

    private struct PrefixKey: Hashable {
        var base: String
        var path: String
    }

    /// A URL text that does not parse (never remembered).
    private struct Unparsable: Error {}

    private let prefixes: BoundedMemo<PrefixKey, Prefix>
    private let urls: BoundedMemo<String, URL>
    let limit: Int

    init(limit: Int = 512) {
        self.limit = limit
        prefixes = BoundedMemo(limit: limit)
        urls = BoundedMemo(limit: limit)
    }

    /// The joined base and path, computed by `make` the first time the pair is seen. Failures
    /// are not remembered: their message names the target, and they are rare.
    func prefix(base: String, path: String, make: () throws(NetworkError) -> Prefix) throws(NetworkError) -> Prefix {
        try prefixes.value(for: PrefixKey(base: base, path: path)) { _ throws(NetworkError) in try make() }
    }

    /// The URL for `text`, parsed the first time it is seen; `nil` when it does not parse.
    func url(for text: String) -> URL? {
        try? urls.value(for: text) { text throws(Unparsable) in
            guard let url = URL(string: text) else { throw Unparsable() }
            return url
        }
    }
}
