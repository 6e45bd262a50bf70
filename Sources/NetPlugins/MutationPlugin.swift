import Foundation
import NetCore

/// Rewrites requests before they are sent and results before the caller sees them.
///
/// ```swift
/// // Sign every request (async work allowed).
/// let signer = MutationPlugin(request: { request in
///     request.headers["X-Signature"] = try await signer.signature(for: request)
/// })
/// // Point every request at a mirror (a URL filter).
/// let mirror = MutationPlugin.rewritingURL { url in mirrorURL(for: url) }
/// // Change what the caller receives (a "thief" of results).
/// let unwrap = MutationPlugin(result: { result, _ in
///     result.map { response in var copy = response; copy.data = unwrapEnvelope(copy.data); return copy }
/// })
/// ```
///
/// The request closure runs in `prepare` (every attempt, so a retry is rewritten again); an error
/// it throws fails the request (a ``/NetCore/NetworkError`` as it is, anything else as
/// ``/NetCore/NetworkError/pluginFailed(plugin:reason:underlying:)``). The result closure runs in `process` for every
/// outcome, including stops, cancellation and results answered without the network.
public struct MutationPlugin: Plugin {
    /// Rewrites a request in `prepare`.
    typealias RequestMutation = @Sendable (inout Request) async throws -> Void
    /// Transforms the final result in `process`.
    typealias ResultMutation = @Sendable (Result<Response, NetworkError>, Request) async -> Result<Response, NetworkError>

    public let name: String
    private let requestMutation: RequestMutation?
    private let resultMutation: ResultMutation?

    /// Creates a plugin from one or both closures.
    /// - Parameters:
    ///   - name: Names the plugin in errors. Default `"MutationPlugin"`.
    ///   - request: Rewrites each request before sending; may throw to fail it.
    ///   - result: Transforms each final result.
    public init(
        name: String = "MutationPlugin", request: (@Sendable (inout Request) async throws -> Void)? = nil,
        result: (@Sendable (Result<Response, NetworkError>, Request) async -> Result<Response, NetworkError>)? = nil
    ) {
        self.name = name
        self.requestMutation = request
        self.resultMutation = result
    }

    /// A plugin that replaces each request's URL with `transform(url)`.
    public static func rewritingURL(_ transform: @escaping @Sendable (URL) -> URL) -> MutationPlugin {
        MutationPlugin(name: "URLRewrite", request: { request in request.url = transform(request.url) })
    }

    /// A plugin that sets the headers `compute` returns on each request (signatures, trace ids).
    public static func addingHeaders(_ compute: @escaping @Sendable (Request) async throws -> [String: String]) -> MutationPlugin {
        MutationPlugin(
            name: "HeaderMutation",
            request: { request in
                for (name, value) in try await compute(request) { request.headers[name] = value }
            })
    }

    /// A plugin that transforms successful responses only; failures pass through. An error thrown
    /// by `transform` becomes the result (a non-``/NetCore/NetworkError`` as ``/NetCore/NetworkError/pluginFailed(plugin:reason:underlying:)``).
    public static func mappingResponses(_ transform: @escaping @Sendable (Response) async throws -> Response) -> MutationPlugin {
        MutationPlugin(
            name: "ResponseMutation",
            result: { result, _ in
                guard case .success(let response) = result else { return result }
                do {
                    return .success(try await transform(response))
                } catch let error as NetworkError {
                    return .failure(error)
                } catch {
                    return .failure(.pluginFailed(plugin: "ResponseMutation", reason: String(describing: error), underlying: error))
                }
            })
    }

    public func prepare(_ request: inout Request) async throws -> PrepareAction {
        guard let requestMutation else { return .proceed }
        do {
            try await requestMutation(&request)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw NetworkError.pluginFailed(plugin: name, reason: "rewriting \(request.method) \(request.url.path) failed: \(error)", underlying: error)
        }
        return .proceed
    }

    public func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> {
        guard let resultMutation else { return result }
        return await resultMutation(result, request)
    }
}
