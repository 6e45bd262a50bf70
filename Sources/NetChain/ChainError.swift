import Foundation
import NetCore

/// Why a ``Chain`` stopped before its end.
///
/// Step 0 is the first target's request; step `n` is the `n`-th step closure and the request for
/// the target it returned; the step after the last one is the final closure given to
/// ``Chain/run(finally:)``.
public struct ChainError: Error, Sendable, CustomStringConvertible, LocalizedError {
    /// What part of the step failed.
    public enum Stage: Sendable, Hashable, CustomStringConvertible {
        /// The step closure threw (for example while decoding the previous response).
        case step
        /// The request for the step's target failed.
        case request
        /// The final closure of ``Chain/run(finally:)`` threw.
        case finally

        public var description: String {
            switch self {
            case .step: "step closure"
            case .request: "request"
            case .finally: "final closure"
            }
        }
    }

    /// The failing step (0 is the first request).
    public let stepIndex: Int
    /// Whether the closure, the request or the final closure failed.
    public let stage: Stage
    /// The error the closure threw or the request failed with.
    public let underlying: any Error
    /// The responses of the steps before the failing one, in order.
    public let responses: [Response]
    /// The target whose request failed (for ``Stage/request``), named by its type and case, such
    /// as `API.profile`; the values the target carries never appear.
    public let target: String?

    /// Creates a chain error.
    package init(stepIndex: Int, stage: Stage, underlying: any Error, responses: [Response], target: String? = nil) {
        self.stepIndex = stepIndex
        self.stage = stage
        self.underlying = underlying
        self.responses = responses
        self.target = target
    }

    /// The underlying error as a ``/NetCore/NetworkError``: itself when it is one, ``/NetCore/NetworkError/cancelled``
    /// for cancellation, otherwise ``/NetCore/NetworkError/transport(reason:underlying:)`` with this error's description.
    /// Throw it from a batch operation to keep the request's error case.
    public var networkError: NetworkError {
        .mapping(underlying) { _ in .transport(reason: description) }
    }

    /// Whether the chain stopped because it was cancelled.
    package var isCancellation: Bool {
        underlying is CancellationError || (underlying as? NetworkError)?.isCancellation == true
    }

    public var description: String {
        let what =
            switch stage {
            case .step: "the step closure threw"
            case .request: "the request\(target.map { " for \($0)" } ?? "") failed"
            case .finally: "the final closure threw"
            }
        return "Chain stopped at step \(stepIndex): \(what) after \(responses.count) successful response(s): \(underlying)"
    }

    public var errorDescription: String? { description }
}
