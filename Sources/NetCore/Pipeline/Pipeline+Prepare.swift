import NetTransportSupport
import NetBase
import Foundation

extension Pipeline {
    /// The first attempt's request for `target` after every plugin's `prepare`, checked as it
    /// would be before sending; nothing is sent and no other hook runs.
    func prepared(_ target: any TargetType) async throws(NetworkError) -> Request {
        let storage = CallStorage()
        var request: Request
        switch await buildAttempt(target, id: RequestIdentifier.next(), attempt: 1, context: RequestContext(), storage: storage, observes: false) {
        case .success(let built): request = built
        case .failure(let failed): throw failed.error
        }
        switch await plugins.prepare(&request) {
        case .send, .respond: break
        case .fail(let error): throw error
        }
        if let attemptTimeout = configuration.attemptTimeout { request.timeout = min(request.timeout, attemptTimeout) }
        if let invalid = RequestValidation.check(request) { throw invalid }
        return request
    }
}
