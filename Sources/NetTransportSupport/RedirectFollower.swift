import NetBase
import Foundation

/// Follows redirects one hop at a time for a transport that sends single hops.
package enum RedirectFollower {
    /// ``send(_:policy:maxRedirects:hop:)`` for a streamed response: a failure also ends `body`
    /// with it (as a ``NetworkError``), so that its reader is not left waiting.
    package static func stream(
        _ request: Request, into body: ResponseBodySink, policy: RedirectPolicy, maxRedirects: Int,
        hop: (Request) async throws -> Response
    ) async throws -> Response {
        do {
            return try await send(request, policy: policy, maxRedirects: maxRedirects, hop: hop)
        } catch {
            body.finish(throwing: NetworkError(error))
            throw error
        }
    }

    /// Sends `request` through `hop` and follows redirects under `policy`, at most `maxRedirects`
    /// times, all within the request's timeout. The final response carries the original request.
    /// Every hop, `3xx` included, gets the cookies of ``Request/cookieJar`` for its URL and has
    /// its `Set-Cookie` headers stored.
    package static func send(
        _ request: Request, policy: RedirectPolicy, maxRedirects: Int,
        hop: (Request) async throws -> Response
    ) async throws -> Response {
        try checkURL(of: request)
        // `current` stays as the caller built it; each hop gets the jar's cookies for its own URL
        // (CookieJar.exchange), so a redirect never carries one hop's jar cookies to the next.
        let response = try await CookieJar.exchange(request) { try await hop($0) }
        guard policy.follows, (300...399).contains(response.statusCode) else { return response }
        return try await follow(response, of: request, policy: policy, maxRedirects: maxRedirects, hop: hop)
    }

    /// Fails for a URL no hop may be sent to. Not inlined: the error's text would otherwise
    /// take room in the async frame of every request.
    @inline(never)
    private static func checkURL(of request: Request) throws(NetworkError) {
        guard let problem = RequestValidation.urlProblem(request.url) else { return }
        throw .invalidURL(target: targetDescription(request.target), reason: "\(problem); nothing was sent")
    }

    /// Follows the redirects that begin with `first`, the answer to `request` (its own async
    /// frame: requests without a redirect never allocate it).
    private static func follow(
        _ first: Response, of request: Request, policy: RedirectPolicy, maxRedirects: Int,
        hop: (Request) async throws -> Response
    ) async throws -> Response {
        var response = first
        let clock = ContinuousClock()
        let deadline = clock.now + request.timeout - (response.metrics?.duration ?? .zero)
        var current = request
        var redirects = 0
        while true {
            switch policy.decision(after: response, to: current) {
            case .stop:
                response.request = request
                response.metrics?.redirectCount = redirects
                return response
            case .refuse(let error):
                throw error
            case .follow(var next):
                redirects += 1
                guard redirects <= maxRedirects else {
                    throw NetworkError.redirectRefused(reason: "more than \(maxRedirects) redirects (a redirect loop?)")
                }
                let remaining = deadline - clock.now
                guard remaining > .zero else { throw NetworkError.timedOut }
                next.timeout = remaining
                current.report(.redirectFollowed(statusCode: response.statusCode, location: next.url))
                current = next
                response = try await CookieJar.exchange(next) { try await hop($0) }
            }
        }
    }
}
