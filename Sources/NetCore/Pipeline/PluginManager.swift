import NetBase
import Foundation
import Synchronization

/// Runs an ordered list of plugins with the semantics documented on ``Plugin``; the pipeline's
/// hook runner (internal: ``Provider`` is the public way to run plugins).
///
/// Every hook of every plugin is called until it is known to be a default (see
/// ``DefaultHookProbe``); from then on that plugin's hook is skipped, by every call of the
/// provider. A hook a plugin implements can never be skipped: nothing needs declaring.
struct PluginManager: Sendable {
    private let slots: [PluginSlot]

    /// Creates a manager for `plugins`.
    init(_ plugins: [any Plugin]) {
        slots = plugins.map(PluginSlot.init)
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
    nonisolated(nonsending) func prepare(
        _ request: inout Request, onProvisional: (@Sendable (Response) -> Void)? = nil
    ) async -> PrepareOutcome {
        for slot in slots where slot.calls(.prepare) {
            do {
                let action = try await slot.plugin.prepare(&request)
                slot.learn(.prepare)
                switch action {
                case .proceed: continue
                case .respond(let response): return .respond(response)
                case .provisional(let response): onProvisional?(response)
                }
            } catch {
                return .fail(.mapping(error) { .pluginFailed(plugin: slot.plugin.name, reason: String(describing: $0), underlying: $0) })
            }
        }
        return .send
    }

    /// Runs `willSend` on every plugin; returns the first stop as an error, or `nil` to send.
    nonisolated(nonsending) func willSend(_ request: Request) async -> NetworkError? {
        var stop: NetworkError?
        for slot in slots where slot.calls(.willSend) {
            let action = await slot.plugin.willSend(request)
            slot.learn(.willSend)
            if case .stop(let reason) = action, stop == nil {
                stop = .stopped(plugin: slot.plugin.name, reason: reason)
            }
        }
        return stop
    }

    /// Runs `succeed` on every plugin; returns the first non-`.proceed` decision.
    nonisolated(nonsending) func succeed(_ response: Response, for request: Request) async -> SucceedAction {
        var decision = SucceedAction.proceed
        for slot in slots where slot.calls(.succeed) {
            let action = await slot.plugin.succeed(response, for: request)
            slot.learn(.succeed)
            if case .proceed = decision { decision = action }
        }
        return decision
    }

    /// Runs `failure` on every plugin; returns the first non-`.proceed` decision.
    nonisolated(nonsending) func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
        var decision = FailureAction.proceed
        for slot in slots where slot.calls(.failure) {
            let action = await slot.plugin.failure(error, for: request)
            slot.learn(.failure)
            if case .proceed = decision { decision = action }
        }
        return decision
    }

    /// Runs `didReceive` on every plugin, in order.
    nonisolated(nonsending) func didReceive(_ result: Result<Response, NetworkError>, for request: Request) async {
        for slot in slots where slot.calls(.didReceive) {
            await slot.plugin.didReceive(result, for: request)
            slot.learn(.didReceive)
        }
    }

    /// Runs `process` in order, each plugin transforming the previous result.
    nonisolated(nonsending) func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> {
        var result = result
        for slot in slots where slot.calls(.process) {
            result = await slot.plugin.process(result, for: request)
            slot.learn(.process)
        }
        return result
    }
}

/// One plugin of a ``PluginManager``, and what its calls so far showed about each hook: left at
/// its default (skip it) or implemented (call it, stop probing). Shared by every call of a
/// provider; relaxed atomics are enough, since skipping a default hook and calling it are the same.
final class PluginSlot: Sendable {
    let plugin: any Plugin
    /// `DefaultHookProbe`'s mark for this plugin's type, without the hook bits.
    private let typeMark: UInt
    /// Bit `h`: hook `h` is a default; bit `8 + h`: hook `h` is implemented.
    private let known = Atomic<UInt16>(0)

    init(_ plugin: any Plugin) {
        self.plugin = plugin
        typeMark = DefaultHookProbe.mark(type(of: plugin), .prepare)
    }

    /// Whether `hook` must be called (it is not known to be a default).
    @inline(__always)
    func calls(_ hook: DefaultHookProbe.Hook) -> Bool {
        known.load(ordering: .relaxed) & (1 << hook.rawValue) == 0
    }

    /// Right after calling `hook` (nothing may run in between): records what the call showed.
    @inline(__always)
    func learn(_ hook: DefaultHookProbe.Hook) {
        let bits = known.load(ordering: .relaxed)
        guard bits & (0x101 << hook.rawValue) == 0 else { return }
        let isDefault = DefaultHookProbe.wasDefault(typeMark | UInt(hook.rawValue))
        known.bitwiseOr(isDefault ? 1 << hook.rawValue : 0x100 << hook.rawValue, ordering: .relaxed)
    }
}
