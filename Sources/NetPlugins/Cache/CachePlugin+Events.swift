import Foundation
import NetCore

extension CachePlugin {
    /// Answers from the cache or lets the request go on (see ``CachePolicy``), and reports the
    /// decision to the call's observers: ``/NetCore/NetworkEvent/Kind/cacheHit`` for a stored answer (a
    /// provisional one included), ``/NetCore/NetworkEvent/Kind/cacheMiss`` when nothing usable is stored.
    /// A conditional request for a stored entry reports ``/NetCore/NetworkEvent/Kind/cacheRevalidated``
    /// when its `304` arrives, and nothing before.
    public func prepare(_ request: inout Request) async throws -> PrepareAction {
        let action: PrepareAction
        do {
            action = try await decide(&request)
        } catch {
            request.report(.cacheMiss)
            throw error
        }
        guard request.isObserved else { return action }
        switch action {
        case .respond(let response) where response.cacheInfo != nil, .provisional(let response) where response.cacheInfo != nil:
            request.report(.cacheHit)
        case .respond:
            request.report(.cacheMiss)
        case .proceed, .provisional:
            if let state = request.context[CacheStateKey.self], state.revalidating == nil { request.report(.cacheMiss) }
        }
        return action
    }
}
