import NetToolbox
import Foundation
import NetCore

/// ``CachePolicy/http``: stale content (RFC 5861) and the checks on what the cache answers.
extension CachePlugin {
    /// The stored entry, marked stale when it is, to answer a failed exchange with; `nil` when
    /// the entry's and the request's directives forbid it (see ``HTTPJudgement``).
    func staleAnswer(for request: Request, state: CacheState, transportFailure: Bool) -> Response? {
        guard state.rule.policy == .http, let entry = state.revalidating else { return nil }
        let judgement = HTTPJudgement(entry: entry, limit: state.rule.maxAge, at: now())
        let asked = HTTPCacheDirectives(request.headers)
        guard judgement.allowsServingOnError(asked, transportFailure: transportFailure) else { return nil }
        return httpResponse(entry, for: request, judgement: judgement)
    }

    /// A cached response whose status the target does not accept (a stored 404, the 504 of
    /// `only-if-cached`) fails as the network response would have.
    static func validated(_ result: Result<Response, NetworkError>) -> Result<Response, NetworkError> {
        guard case .success(let response) = result, response.source == .cache,
            !StatusRules.isSuccess(response.statusCode),
            let error = response.request.target.validation.check(response)
        else { return result }
        return .failure(error)
    }

    /// Sends `request` with the entry's validators through ``revalidationTransport`` and stores
    /// what comes back (a refreshed entry for a 304). One revalidation per key at a time.
    func revalidateInBackground(_ request: Request, entry: CacheEntry, state: CacheState, transport: any Transport) {
        guard refreshesInFlight.withLock({ $0.insert(state.key).inserted }) else { return }
        var conditional = request
        Self.addValidators(of: entry, to: &conditional.headers)
        var state = state
        state.revalidating = entry
        let plugin = self
        Task.detached {
            defer { _ = plugin.refreshesInFlight.withLock { $0.remove(state.key) } }
            guard let response = try? await transport.send(conditional, progress: nil) else { return }
            if response.statusCode == 304 {
                await plugin.storeRefreshed(plugin.refreshedHTTPEntry(entry, with: response, state: state), for: conditional, state: state)
            } else if response.statusCode < 500 {
                await plugin.storeHTTP(response, for: conditional, state: state)
            }
        }
    }
}
