import NetBase
import Foundation

/// Chooses per target whether a request is stubbed or sent (Moya's `stubClosure`): some targets
/// answer with their ``TargetType/sampleResponse`` at once or after a delay, the rest go to the
/// network, all through one provider.
///
/// ```swift
/// let transport = PerTargetStubTransport { target in
///     switch target as? API {
///     case .login?: .immediate              // not ready on the server yet
///     case .feed?: .delayed(.milliseconds(300))
///     default: .never                       // real network
///     }
/// }
/// let provider = Provider<API>(transport: transport)
/// ```
///
/// Every plugin hook runs for stubbed requests too. Capabilities are the network transport's.
public struct PerTargetStubTransport: Transport {
    /// Whether and how a target is stubbed (Moya's `StubBehavior`).
    public enum StubBehavior: Sendable {
        /// Sent to the network transport.
        case never
        /// Answered with the sample response at once.
        case immediate
        /// Answered with the sample response after a delay.
        case delayed(Duration)
    }

    /// The transport for targets that are not stubbed.
    public let network: any Transport
    private let stubClosure: @Sendable (any TargetType) -> StubBehavior

    /// Creates the transport.
    /// - Parameters:
    ///   - network: Sends what is not stubbed. Default: ``DefaultTransport/shared``.
    ///   - stubClosure: The behaviour for a target (the wrapped one for an ``AnyTarget``).
    public init(network: any Transport = DefaultTransport.shared, stubClosure: @escaping @Sendable (any TargetType) -> StubBehavior) {
        self.network = network
        self.stubClosure = stubClosure
    }

    /// The network transport's capabilities.
    public var capabilities: TransportCapabilities { network.capabilities }

    /// Answers from the sample response or sends through ``network``, as the target's behaviour says.
    public func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        try await transport(for: request).send(request, progress: progress)
    }

    /// Streams from the sample response or through ``network``.
    public func stream(_ request: Request, into body: ResponseBodySink) async throws -> Response {
        try await transport(for: request).stream(request, into: body)
    }

    private func transport(for request: Request) -> any Transport {
        switch stubClosure(request.originalTarget) {
        case .never: network
        case .immediate: StubTransport(behavior: .immediate, capabilities: network.capabilities)
        case .delayed(let delay): StubTransport(behavior: .delayed(delay), capabilities: network.capabilities)
        }
    }
}
