extension Request {
    /// The target this request was built from, seen through ``AnyTarget``: the wrapped target when
    /// ``target`` is an ``AnyTarget``, else ``target`` itself.
    ///
    /// A provider of `AnyTarget` hands plugins the wrapper, which hides the protocols the real
    /// target adopts. Ask this property instead of ``target`` before casting:
    ///
    /// ```swift
    /// if let signed = request.originalTarget as? any SignedTarget { … }
    /// ```
    public var originalTarget: any TargetType {
        // A metatype comparison first: a failed `as? AnyTarget` cast costs a runtime lookup on
        // every request. `AnyTarget` never wraps another `AnyTarget`, so one step is enough.
        type(of: target) == AnyTarget.self ? (target as! AnyTarget).base : target
    }
}
