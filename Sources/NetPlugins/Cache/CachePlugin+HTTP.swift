import Foundation
import NetCore

/// ``CachePolicy/http``: what `prepare` answers, what is stored and how a 304 refreshes.
extension CachePlugin {
    /// Answers from a usable entry, or sends (conditionally when an entry has validators).
    func prepareHTTP(_ request: inout Request, state: consuming CacheState, at time: Date) async -> PrepareAction {
        state.requestTime = time
        let read = Self.readRequestHeaders(request.headers)
        let asked = HTTPCacheDirectives(value: read.cacheControl)
        guard request.method == .get || request.method == .head, !asked.noStore, !read.hasPreconditions else {
            if request.context[CacheStateKey.self] != nil { request.context[CacheStateKey.self] = nil }
            return .proceed
        }
        guard let entry = await lookup(state.key, state.rule, for: request) else {
            if asked.onlyIfCached { return .respond(Self.gatewayTimeout(for: request)) }
            request.context[CacheStateKey.self] = state
            return .proceed
        }
        let judgement = HTTPJudgement(entry: entry, limit: state.rule.maxAge, at: time)
        if judgement.satisfies(asked) {
            return .respond(httpResponse(entry, for: request, judgement: judgement))
        }
        if asked.onlyIfCached { return .respond(Self.gatewayTimeout(for: request)) }
        if let refresher = revalidationTransport, judgement.allowsRevalidationInBackground(asked) {
            revalidateInBackground(request, entry: entry, state: state, transport: refresher)
            return .respond(httpResponse(entry, for: request, judgement: judgement))
        }
        state.revalidating = entry
        Self.addValidators(of: entry, to: &request.headers)
        request.context[CacheStateKey.self] = state
        return .proceed
    }

    /// Stores a response the origin sent (any status; the RFC decides), or removes the entry it
    /// replaces when it may not be stored.
    func storeHTTP(_ response: Response, for request: Request, state: CacheState) async {
        guard response.source != .cache, response.fileURL == nil, request.download == nil, !request.streamsResponseBody,
            response.statusCode != 304, mayStore(for: request, state: state)
        else { return }
        let control = HTTPCacheDirectives(response.headers)
        let asked = HTTPCacheDirectives(request.headers)
        guard
            HTTPFreshness.isStorable(
                status: response.statusCode, method: request.method, response: control, request: asked,
                headers: response.headers),
            let varying = admission(of: response.headers, for: request)
        else {
            // A server error must not evict what stale-if-error could still serve.
            if response.statusCode < 500 { await storage.remove(for: state.key) }
            return
        }
        let time = now()
        let entry = CacheEntry(
            statusCode: response.statusCode, headers: response.headers, data: response.data,
            storedAt: entryDate(headers: response.headers, requestTime: state.requestTime ?? time, responseTime: time),
            version: state.rule.version,
            maxAge: lifetime(status: response.statusCode, headers: response.headers, control: control, at: time),
            varyingHeaders: varying)
        await storage.storeIfPossible(entry, for: state.key)
    }

    /// `entry` updated by a 304 (RFC 9111 §4.3.4): its headers replaced by the 304's except the
    /// framing ones, its age and lifetime computed again; stored when allowed, and returned.
    func refreshedHTTPEntry(_ entry: CacheEntry, with notModified: Response, state: CacheState) -> CacheEntry {
        var refreshed = entry
        for field in notModified.headers where !Self.representationHeaders.contains(field.name.lowercased()) {
            refreshed.headers[field.name] = field.value
        }
        let time = now()
        refreshed.storedAt = entryDate(
            headers: notModified.headers, requestTime: state.requestTime ?? time, responseTime: time)
        refreshed.maxAge = lifetime(
            status: refreshed.statusCode, headers: refreshed.headers,
            control: HTTPCacheDirectives(refreshed.headers), at: time)
        return refreshed
    }

    /// A stored response as the caller gets it: from the cache, its age in `cacheInfo` and `Age`.
    func httpResponse(_ entry: CacheEntry, for request: Request, judgement: HTTPJudgement) -> Response {
        let headers = entry.agedHeaders.headers(age: judgement.age.components.seconds)
        var response = Response(
            statusCode: entry.statusCode, headers: headers, data: entry.data, request: request, source: .cache)
        response.cacheInfo = CacheInfo(age: judgement.age, isStale: !judgement.isFresh)
        return response
    }

    /// The date an entry is stored with: the response time less its initial age, so that
    /// ``CacheEntry/age(at:)`` is the RFC's `current_age`.
    private func entryDate(headers: HTTPHeaders, requestTime: Date, responseTime: Date) -> Date {
        responseTime - HTTPFreshness.initialAge(headers: headers, requestTime: requestTime, responseTime: responseTime)
    }

    private func lifetime(status: Int, headers: HTTPHeaders, control: HTTPCacheDirectives, at time: Date) -> Duration {
        let seconds = HTTPFreshness.lifetime(status: status, headers: headers, directives: control, responseTime: time)
        return Duration(seconds: seconds, roundedToNanoseconds: .towardZero)
    }

    /// Sends the entry's validators: its `ETag` (weak ones too) and its `Last-Modified`.
    static func addValidators(of entry: CacheEntry, to headers: inout HTTPHeaders) {
        if let etag = entry.etag { headers["If-None-Match"] = etag }
        if let lastModified = entry.lastModified { headers["If-Modified-Since"] = lastModified }
    }

    /// The request's `Cache-Control`, and whether the caller sent its own conditional or range
    /// headers (the cache then stays out of the way: a 304 or 206 is the caller's to handle). One
    /// pass over the fields, on every `.http` hit, comparing names as bytes (no allocation).
    static func readRequestHeaders(_ headers: HTTPHeaders) -> (cacheControl: String?, hasPreconditions: Bool) {
        var cacheControl: String?
        for field in headers {
            if HTTPHeaders.sameName(field.name, "Cache-Control") {
                if cacheControl == nil { cacheControl = field.value }
            } else if preconditionNames.contains(where: { HTTPHeaders.sameName(field.name, $0) }) {
                return (cacheControl, true)
            }
        }
        return (cacheControl, false)
    }

    /// The request headers that make a request conditional or partial.
    private static let preconditionNames = [
        "Range", "If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range",
    ]

    /// The answer to `only-if-cached` when nothing usable is stored (RFC 9111 §5.2.1.7).
    static func gatewayTimeout(for request: Request) -> Response {
        Response(statusCode: 504, headers: ["Content-Length": "0"], request: request, source: .cache)
    }

    /// Headers of a 304 that describe its (empty) body, not the stored representation.
    static let representationHeaders: Set<String> = [
        "content-length", "content-type", "content-encoding", "transfer-encoding", "content-range",
    ]
}
