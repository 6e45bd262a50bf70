import NetToolbox
import Foundation

/// Keeps the cookies servers set and sends them back, like a browser (RFC 6265).
///
/// Off unless you opt in, with one line:
///
/// ```swift
/// var configuration = ProviderConfiguration()
/// configuration.cookieJar = CookieJar()             // in memory
/// // or CookieJar(persistingTo: cookiesFile)         // kept across launches (JSON, session cookies left out)
/// ```
///
/// The jar reads `Set-Cookie` from every response, each redirect hop's `3xx` included, and adds a
/// `Cookie` header to every hop it sends, by the same rules on every transport:
///
/// - `Domain` must be the request host or a domain above it, and neither a public suffix
///   (every one-label name and a short built-in list such as `co.uk` or `github.io`; not the full
///   Public Suffix List) nor set by an IP-address host; otherwise the cookie is ignored. Without
///   `Domain` a cookie goes back to its host only.
/// - `Path` limits the URLs (default: the request's directory); `Secure` cookies are set from and
///   sent over https only, and an http response cannot replace one; `Max-Age` wins over
///   `Expires`, a past date or `Max-Age=0` deletes, and every lifetime is capped at 400 days.
/// - Lines longer than 4096 bytes, holding control characters (CR, LF, NUL) or without a name are
///   ignored; the jar keeps at most 50 cookies per domain and 3000 in all, dropping the least
///   recently used.
/// - A `Cookie` header already on the request is kept; the jar adds its cookies after it, except
///   those whose names it already carries. Across origins a redirect drops that header
///   (``RedirectPolicy``), and the jar adds what the new origin's cookies are.
///
/// The jar's cookies are added on the wire only: plugins, logs and ``Response/request`` show the
/// request as it was built. Thread-safe; share one jar between providers to share a session.
public final class CookieJar: Sendable {
    private let state: Locked<CookieStore>
    private let now: @Sendable () -> Date
    private let file: CookieFile?

    /// An empty jar in memory.
    public convenience init() {
        self.init(fileURL: nil)
    }

    /// A jar kept in the JSON file at `fileURL`: loaded now (a missing, unreadable or corrupt file
    /// gives an empty jar), rewritten atomically after each change, readable by its owner only.
    /// Session cookies (without `Max-Age` or `Expires`) are never written to it.
    public convenience init(persistingTo fileURL: URL) {
        self.init(fileURL: fileURL)
    }

    /// A jar with its own clock and limits (for tests).
    package init(fileURL: URL?, limits: CookieLimits = CookieLimits(), now: @escaping @Sendable () -> Date = { Date() }) {
        self.now = now
        let file = fileURL.map(CookieFile.init(url:))
        self.file = file
        var store = CookieStore(limits: limits)
        if let file {
            let current = now()
            for entry in file.load(at: current) {
                _ = store.store(entry.cookie, fromSecureOrigin: true, now: current, lastAccess: entry.lastAccess)
            }
        }
        state = Locked(store)
    }

    /// The cookies a request to `url` would carry, in the order they would be sent.
    public func cookies(for url: URL) -> [Cookie] {
        guard let host = CookieDomain.host(of: url) else { return [] }
        let path = CookieDomain.requestPath(of: url), secure = CookieRules.isSecure(url), now = now()
        return state.withLock { $0.cookies(forHost: host, path: path, secure: secure, now: now, touch: false) }
    }

    /// Every unexpired cookie in the jar.
    public var allCookies: [Cookie] {
        let now = now()
        return state.withLock { $0.all(at: now) }
    }

    /// Removes every cookie.
    public func removeAll() {
        change { store in store.remove { _ in true } }
    }

    /// Removes the cookies named `name` stored for `domain` (a host or a domain, any case, a
    /// leading dot ignored), on every path or only on `path`.
    public func remove(name: String, domain: String, path: String? = nil) {
        var domain = domain.lowercased()
        if domain.hasPrefix(".") { domain.removeFirst() }
        change { store in
            store.remove { $0.name == name && $0.domain == domain && (path == nil || $0.path == path) }
        }
    }

    /// Stores the cookies of a `Set-Cookie` header value as if received from `url`, every rule
    /// applying. The value is read as repeated fields that were joined with commas (as
    /// FoundationNetworking joins them) and split again where a comma starts a new `name=`;
    /// for fields kept apart, ``storeCookies(fromSetCookieFields:receivedFrom:)`` reads each
    /// field whole. The jar does this itself for the responses of requests it rides along with.
    package func storeCookies(fromSetCookie header: String, receivedFrom url: URL) {
        store(lines: SetCookieLine.split(header), receivedFrom: url)
    }

    /// Stores the cookies of `Set-Cookie` fields as if received from `url`: each element is one
    /// field read whole, so `z=y, a=b` is one cookie named `z` (RFC 6265 §5.2).
    package func storeCookies(fromSetCookieFields fields: [String], receivedFrom url: URL) {
        store(lines: fields.map { Substring($0) }, receivedFrom: url)
    }

    private func store(lines: [Substring], receivedFrom url: URL) {
        let now = now()
        let cookies = lines.compactMap { line in
            SetCookieLine.parse(line).flatMap { CookieRules.cookie(from: $0, receivedFrom: url, at: now) }
        }
        guard !cookies.isEmpty else { return }
        let secure = CookieRules.isSecure(url)
        change { store in
            var changed = false
            for cookie in cookies where store.store(cookie, fromSecureOrigin: secure, now: now) { changed = true }
            return changed
        }
    }

    /// The lines of a `Set-Cookie` value whose repeated fields a transport joined with `", "`,
    /// split where a comma starts a new `name=`: a heuristic (a cookie value may hold such a
    /// comma), for a transport that keeps no raw fields.
    package static func splitJoinedSetCookie(_ header: String) -> [String] {
        SetCookieLine.split(header).map(String.init)
    }

    /// The `Cookie` header value for a request to `url` (`a=1; b=2`), leaving out the names in
    /// `excluded`; `nil` when no cookie applies. Marks the cookies as used.
    package func cookieHeader(for url: URL, excluding excluded: Set<String> = []) -> String? {
        guard let host = CookieDomain.host(of: url) else { return nil }
        let path = CookieDomain.requestPath(of: url), secure = CookieRules.isSecure(url), now = now()
        let cookies = state.withLock { $0.cookies(forHost: host, path: path, secure: secure, now: now, touch: true) }
        let pairs = cookies.filter { !excluded.contains($0.name) }.map { "\($0.name)=\($0.value)" }
        return pairs.isEmpty ? nil : pairs.joined(separator: "; ")
    }

    /// Runs `body` on the store; when it reports a change and the jar has a file, writes the
    /// file after unlocking. Each snapshot is numbered under the lock, so a slower writer never
    /// replaces a newer file with an older snapshot.
    private func change(_ body: (inout CookieStore) -> Bool) {
        let now = now()
        let snapshot = state.withLock { store -> (entries: [CookieStore.Entry], generation: UInt64)? in
            guard body(&store), file != nil else { return nil }
            store.generation += 1
            return (store.persistentEntries(at: now), store.generation)
        }
        if let snapshot, let file { file.write(snapshot.entries, generation: snapshot.generation) }
    }
}
