import NetBase
import Foundation

extension Provider {
    /// The request `target` would send, as it would go out after every plugin's `prepare`
    /// (headers a plugin adds, a token, a signed URL), checked like a real send: nothing is sent,
    /// and no other hook runs. Moya's `endpoint(target).urlRequest()`, for tests and debugging.
    ///
    /// ```swift
    /// let request = try await provider.buildRequest(.user("octocat"))
    /// #expect(request.headers["Authorization"] == "Bearer token")
    /// ```
    ///
    /// A plugin that would answer in `prepare` (a cache hit) does not stop it: the request is
    /// returned as prepared so far.
    /// - Throws: ``NetworkError`` when the request cannot be built, a plugin's `prepare` fails, or
    ///   the request breaks a rule of the security model (it would not be sent).
    public func buildRequest(_ target: Target) async throws(NetworkError) -> Request {
        try await pipeline.prepared(target)
    }
}
