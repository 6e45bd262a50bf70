/// The hooks of a ``Plugin``, as a set: no longer read by the provider.
///
/// A provider finds by itself which hooks a plugin leaves at their defaults and stops calling
/// them after its first call, so there is nothing to declare; a hook a plugin implements is
/// always called. Remove `var hooks: PluginHooks { ... }` from your plugins.
@available(*, deprecated, message: "The provider finds the hooks a plugin implements by itself; remove the declaration.")
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
