import Foundation

/// A type-erased ``TargetType``, so one ``Provider``, batch or chain can mix several target enums.
///
/// ```swift
/// let provider = Provider<AnyTarget>()
/// _ = try await provider.request(AnyTarget(GitHub.user("swift")))
/// _ = try await provider.request(AnyTarget(HTTPBin.get([:])))
/// ```
public struct AnyTarget: TargetType, CustomStringConvertible {
    /// The wrapped target.
    public let base: any TargetType

    /// Wraps `target`. Wrapping an `AnyTarget` again keeps the original target.
    public init(_ target: any TargetType) {
        if let erased = target as? AnyTarget {
            self.base = erased.base
        } else {
            self.base = target
        }
    }

    public var baseURL: URL { base.baseURL }
    public var path: String { base.path }
    public var method: HTTPMethod { base.method }
    public var content: RequestContent { base.content }
    public var headers: [String: String] { base.headers }
    public var timeout: Duration? { base.timeout }
    public var validation: Validation { base.validation }
    public var sampleResponse: SampleResponse { base.sampleResponse }
    public var options: TargetOptions { base.options }
    public var description: String { targetDescription(base) }
}
