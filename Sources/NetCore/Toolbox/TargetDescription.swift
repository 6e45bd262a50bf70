/// A short name for a target in error messages and logs, such as `HTTPBin.status(404)`: the
/// target's type and its value; an ``AnyTarget`` is named by the target it wraps.
package func targetDescription(_ target: any TargetType) -> String {
    if let erased = target as? AnyTarget { return targetDescription(erased.base) }
    return "\(type(of: target)).\(target)"
}
