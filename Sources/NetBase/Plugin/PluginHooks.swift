/// The hooks of a ``Plugin`` that do something: the provider calls only these.
///
/// A hook a plugin leaves at its default changes nothing, but calling it still costs an
/// asynchronous call per request and attempt. Declare ``Plugin/hooks`` to skip them:
///
/// ```swift
/// struct TraceHeader: Plugin {
///     var hooks: PluginHooks { [.prepare] }
///     func prepare(_ request: inout Request) async throws -> PrepareAction {
///         request.headers["X-Trace"] = UUID().uuidString
///         return .proceed
///     }
/// }
/// ```
///
/// A hook left out of the set is never called, even when the plugin implements it.
public struct PluginHooks: OptionSet, Sendable, Hashable {
    /// One bit per hook.
    public let rawValue: UInt8

    /// Creates a set from its raw bits.
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// ``Plugin/prepare(_:)``.
    public static let prepare = PluginHooks(rawValue: 1 << 0)
    /// ``Plugin/willSend(_:)``.
    public static let willSend = PluginHooks(rawValue: 1 << 1)
    /// ``Plugin/succeed(_:for:)``.
    public static let succeed = PluginHooks(rawValue: 1 << 2)
    /// ``Plugin/failure(_:for:)``.
    public static let failure = PluginHooks(rawValue: 1 << 3)
    /// ``Plugin/didReceive(_:for:)``.
    public static let didReceive = PluginHooks(rawValue: 1 << 4)
    /// ``Plugin/process(_:for:)``.
    public static let process = PluginHooks(rawValue: 1 << 5)
    /// Every hook: what a plugin that declares nothing gets.
    public static let all: PluginHooks = [.prepare, .willSend, .succeed, .failure, .didReceive, .process]
}
