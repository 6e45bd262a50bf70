import Foundation
import NetCore
import NetToolbox

/// A stored entry brought back: refreshed by a 304, or turned into the response a caller gets.
extension CachePlugin {
    /// Stores `entry` refreshed by a 304 (its headers merged in, its age reset) and returns the
    /// response to give the caller.
    func refresh(_ entry: CacheEntry, with notModified: Response, state: CacheState, request: Request) async -> Response {
        request.report(.cacheRevalidated)
        if state.rule.policy == .http {
            let refreshed = refreshedHTTPEntry(entry, with: notModified, state: state)
            await storeRefreshed(refreshed, for: request, state: state)
            let judgement = HTTPJudgement(entry: refreshed, limit: state.rule.maxAge, at: now())
            var response = httpResponse(refreshed, for: request, judgement: judgement)
            response.cacheInfo?.isStale = false
            return response
        }
        var refreshed = entry
        for field in notModified.headers where !Self.representationHeaders.contains(field.name.lowercased()) {
            refreshed.headers[field.name] = field.value
        }
        let time = now()
        refreshed.storedAt = time
        if respectsCacheControl { refreshed.maxAge = CacheControl(refreshed.headers).responseLimit }
        await storeRefreshed(refreshed, for: request, state: state)
        return cachedResponse(refreshed, for: request, at: time, stale: false)
    }

    /// Stores an entry a 304 refreshed, or removes it when its new headers forbid storing.
    func storeRefreshed(_ entry: CacheEntry, for request: Request, state: CacheState) async {
        guard mayStore(for: request, state: state) else { return }
        var refreshed = entry
        if let varying = admission(of: refreshed.headers, for: request) {
            refreshed.varyingHeaders = varying
            await storage.storeIfPossible(refreshed, for: state.key)
        } else {
            await storage.remove(for: state.key)
        }
    }

    func cachedResponse(_ entry: CacheEntry, for request: Request, at time: Date, stale: Bool) -> Response {
        var response = Response(
            statusCode: entry.statusCode, headers: entry.headers, data: entry.data,
            request: request, source: .cache)
        response.cacheInfo = CacheInfo(age: entry.age(at: time), isStale: stale)
        return response
    }
}
