import NetBase
import Foundation

/// Runs an ordered list of plugins with the semantics documented on ``Plugin``; the pipeline's
/// hook runner (internal: ``Provider`` is the public way to run plugins).
struct PluginManager: Sendable {
    /// For each hook, the plugins that declare it (``Plugin/hooks``), in the order given: decided
    /// once, so that a request calls no hook left at its default.
    private let preparing, sending, succeeding, failing, observing, processing: [any Plugin]

    /// Creates a manager for `plugins`.
    init(_ plugins: [any Plugin]) {
        let declared = plugins.map { ($0, $0.hooks) }
        func declaring(_ hook: PluginHooks) -> [any Plugin] { declared.filter { $0.1.contains(hook) }.map(\.0) }
        preparing = declaring(.prepare)
        sending = declaring(.willSend)
        succeeding = declaring(.succeed)
        failing = declaring(.failure)
        observing = declaring(.didReceive)
        processing = declaring(.process)
    }

    /// The outcome of the prepare phase.
    enum PrepareOutcome: Sendable {
        /// Every plugin proceeded: send the request.
        case send
        /// A plugin answered; skip the transport.
        case respond(Response)
        /// A plugin threw.
        case fail(NetworkError)
    }

    /// Runs `prepare` in order. Provisional responses go to `onProvisional`.
    func prepare(
        _ request: inout Request, onProvisional: (@Sendable (Response) -> Void)? = nil
    ) async -> PrepareOutcome {
        for plugin in preparing {
            do {
                switch try await plugin.prepare(&request) {
                case .proceed: continue
                case .respond(let response): return .respond(response)
                case .provisional(let response): onProvisional?(response)
                }
            } catch {
                return .fail(.mapping(error) { .pluginFailed(plugin: plugin.name, reason: String(describing: $0), underlying: $0) })
            }
        }
        return .send
    }

    /// Runs `willSend` on every plugin; returns the first stop as an error, or `nil` to send.
    func willSend(_ request: Request) async -> NetworkError? {
        var stop: NetworkError?
        for plugin in sending {
            if case .stop(let reason) = await plugin.willSend(request), stop == nil {
                stop = .stopped(plugin: plugin.name, reason: reason)
            }
        }
        return stop
    }

    /// Runs `succeed` on every plugin; returns the first non-`.proceed` decision.
    func succeed(_ response: Response, for request: Request) async -> SucceedAction {
        var decision = SucceedAction.proceed
        for plugin in succeeding {
            let action = await plugin.succeed(response, for: request)
            if case .proceed = decision { decision = action }
        }
        return decision
    }

    /// Runs `failure` on every plugin; returns the first non-`.proceed` decision.
    func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
        var decision = FailureAction.proceed
        for plugin in failing {
            let action = await plugin.failure(error, for: request)
            if case .proceed = decision { decision = action }
        }
        return decision
    }

    /// Runs `didReceive` on every plugin, in order.
    func didReceive(_ result: Result<Response, NetworkError>, for request: Request) async {
        for plugin in observing {
            await plugin.didReceive(result, for: request)
        }
    }

    /// Runs `process` in order, each plugin transforming the previous result.
    func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> {
        var result = result
        for plugin in processing {
            result = await plugin.process(result, for: request)
        }
        return result
    }
}
