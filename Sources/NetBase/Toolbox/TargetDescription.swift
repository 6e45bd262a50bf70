/// A short name for a target in error messages and logs, such as `HTTPBin.status`: the target's
/// type and its enum case, or its type and path for other kinds of targets. Values a target
/// carries (a case's associated values, a struct's properties) never appear: they may hold a
/// password. A target that declares its own `description` (`CustomStringConvertible`) is named by
/// it; an ``AnyTarget`` is named by the target it wraps.
package func targetDescription(_ target: any TargetType) -> String {
    if let erased = target as? AnyTarget { return targetDescription(erased.base) }
    if let described = target as? any CustomStringConvertible { return "\(type(of: target)).\(described.description)" }
    let typeName = String(describing: type(of: target))
    let mirror = Mirror(reflecting: target)
    guard mirror.displayStyle == .enum else { return "\(typeName) \(target.path)" }
    // A case with associated values reflects as one child labelled with the case's name; a case
    // without any prints as its bare name.
    if let caseName = mirror.children.first?.label { return "\(typeName).\(caseName)" }
    return "\(typeName).\(String(describing: target))"
}
