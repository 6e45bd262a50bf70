import Foundation

/// One moment in the life of a call, as a ``NetworkEventObserver`` sees it.
///
/// Events arrive in order for one call: ``Kind/callStarted`` first, then for each attempt
/// ``Kind/attemptStarted``, the redirects and cache decisions of that attempt, and its
/// ``Kind/response(_:)`` or ``Kind/failure(_:)``; between attempts ``Kind/retryScheduled(after:reason:)``;
/// ``Kind/callEnded(_:duration:)`` last, exactly once, whatever the outcome (cancellation and
/// deadlines included).
public struct NetworkEvent: Sendable {
    /// What happened.
    public enum Kind: Sendable {
        /// The call began: its first request is built, no plugin has prepared it yet.
        case callStarted
        /// An attempt began; ``NetworkEvent/attempt`` says which.
        case attemptStarted
        /// A plugin asked for another attempt and it will start after `delay`; `reason` is the
        /// attempt's outcome that asked for it.
        case retryScheduled(after: Duration, reason: Result<Response, NetworkError>)
        /// A transport followed a redirect: `statusCode` answered the request, `location` is the
        /// next hop's URL.
        case redirectFollowed(statusCode: Int, location: URL)
        /// A cache answered without the network.
        case cacheHit
        /// A cache had no usable entry; the request goes to the network.
        case cacheMiss
        /// A cache's stored entry was confirmed by the server (a `304`) and answered.
        case cacheRevalidated
        /// The attempt got a response its target's validation accepts (before the deciding hooks;
        /// a stream's head).
        case response(Response)
        /// The attempt failed; a status the validation refused is a failure too
        /// (``NetworkError/unacceptableStatus(_:)``, with its response).
        case failure(NetworkError)
        /// The call ended with `result` (after every plugin's `process`), `duration` after it began.
        case callEnded(Result<Response, NetworkError>, duration: Duration)
    }

    /// What happened.
    public let kind: Kind
    /// The request of the attempt (for ``Kind/callStarted`` and a call whose request could not
    /// be built: the request as far as it was built).
    public let request: Request
    /// When it happened.
    public let instant: ContinuousClock.Instant

    /// Identifies the call; the same for every event of it (``Request/id``).
    public var callID: UUID { request.id }
    /// The attempt the event belongs to, starting at 1.
    public var attempt: Int { request.attempt }

    /// Creates an event (the provider and transports make them; this is for tests).
    public init(_ kind: Kind, request: Request, instant: ContinuousClock.Instant = .now) {
        self.kind = kind
        self.request = request
        self.instant = instant
    }
}
