import NetToolbox
import Foundation

/// Which HTTP status codes a target accepts as success.
///
/// A status the validation does not accept becomes ``NetworkError/unacceptableStatus(_:)``,
/// which keeps the whole response, body included.
public enum Validation: Sendable, Hashable {
    /// Every status is accepted.
    case none
    /// 200-299.
    case successCodes
    /// 200-399.
    case successAndRedirectCodes
    /// Exactly these codes.
    case codes(Set<Int>)
    /// `base`'s status rule, and a response `Content-Type` among `accepted`: exact
    /// (`application/json`), a type wildcard (`text/*`) or `*/*`; parameters such as `charset` are
    /// ignored. An empty list means the request's own `Accept` header. A response without a body
    /// (204, 304, `HEAD`) is not checked. See ``requiringContentType(_:)``.
    indirect case contentTypes(Validation, accepted: [String])

    /// This validation, also requiring a `Content-Type` among `accepted` (empty: the request's
    /// `Accept` header); a mismatch fails with ``NetworkError/unacceptableContentType(_:accepted:)``.
    ///
    /// ```swift
    /// var validation: Validation { .successCodes.requiringContentType(["application/json"]) }
    /// ```
    public func requiringContentType(_ accepted: [String] = []) -> Validation {
        .contentTypes(self, accepted: accepted)
    }

    /// Whether `statusCode` is accepted.
    public func accepts(_ statusCode: Int) -> Bool {
        switch self {
        case .none: true
        case .successCodes: StatusRules.isSuccess(statusCode)
        case .successAndRedirectCodes: (200...399).contains(statusCode)
        case .codes(let codes): codes.contains(statusCode)
        case .contentTypes(let base, _): base.accepts(statusCode)
        }
    }

    /// The error `response` fails this validation with, or `nil` when it passes.
    package func check(_ response: Response) -> NetworkError? {
        guard accepts(response.statusCode) else { return .unacceptableStatus(response) }
        guard case .contentTypes(let base, let listed) = self else { return nil }
        if let failure = base.check(response) { return failure }
        let bodyless = StatusRules.hasNoBody(statusCode: response.statusCode, method: response.request.method.rawValue)
        let accepted = listed.isEmpty ? ContentTypeMatch.acceptedTypes(in: response.request.headers["Accept"]) : listed
        guard !bodyless, !accepted.isEmpty else { return nil }
        return ContentTypeMatch.matches(response.headers["Content-Type"], accepted) ? nil : .unacceptableContentType(response, accepted: accepted)
    }
}
