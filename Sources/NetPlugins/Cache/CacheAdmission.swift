import Foundation
import NetCore

/// What ``CachePlugin`` may read and store for whom: credential headers, `Cache-Control`
/// (`no-store`, `private`) and `Vary`.
extension CachePlugin {
    /// Whether the request's headers allow reading the cache: no credential header (unless the
    /// rule allows them) and no `Cache-Control: no-store` (when respected).
    func allowsReading(_ headers: HTTPHeaders, rule: CacheRule) -> Bool {
        for field in headers {
            if !rule.allowsAuthorization, credentials.isCredential(field.name) { return false }
            if respectsCacheControl, HTTPHeaders.sameName(field.name, "Cache-Control"),
                CacheControl(value: field.value).noStore
            {
                return false
            }
        }
        return true
    }

    /// Whether a response to `request` (the request as sent) may be written under `state.key`:
    /// its credentials are allowed and are the ones `prepare` computed the key from.
    func mayStore(for request: Request, state: CacheState) -> Bool {
        let digest = credentials.digest(of: request.headers)
        guard digest == nil || state.rule.allowsAuthorization else { return false }
        return digest == state.credentialDigest
    }

    /// The varying request-header values to store with a response that has `headers`, or `nil`
    /// when it must not be stored: `no-store` (when respected), `private` in a cache that is not
    /// ``CachePlugin/isPrivate``, or `Vary: *`.
    func admission(of headers: HTTPHeaders, for request: Request) -> [VaryingHeader]? {
        let control = CacheControl(headers)
        if respectsCacheControl, control.noStore { return nil }
        if control.isPrivate, !isPrivate { return nil }
        switch Vary.selection(in: headers) {
        case .none: return []
        case .everything: return nil
        case .headers(let names): return Vary.record(names, from: request.headers, credentials: credentials)
        }
    }

    /// The entry for `key` if it was stored under the rule's version and its `Vary` selects
    /// `request`. An entry of another version is removed; a `Vary` mismatch is only a miss.
    func lookup(_ key: CacheKey, _ rule: CacheRule, for request: Request) async -> CacheEntry? {
        guard let entry = await storage.entry(for: key) else { return nil }
        guard entry.version == rule.version else {
            await storage.remove(for: key)
            return nil
        }
        return Vary.matches(entry, request: request.headers, credentials: credentials) ? entry : nil
    }
}
