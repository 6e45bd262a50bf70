import NetToolbox
import Foundation
import NetCore

/// A ``NetworkEventObserver`` that keeps every event, and a compact line for each.
public final class EventLog: NetworkEventObserver {
    private let events = Locked<[NetworkEvent]>([])

    public init() {}

    public func observe(_ event: NetworkEvent) {
        events.withLock { $0.append(event) }
    }

    /// The events so far, in order.
    public var all: [NetworkEvent] { events.withLock { $0 } }

    /// One line per event: `attempt:kind`, with the status, error code or delay where there is one
    /// (`1:started`, `1:attempt`, `1:response 500`, `1:retry 0s after 500`, `2:failure timedOut`, `2:ended 200`).
    public var lines: [String] { all.map(Self.line) }

    /// The compact line for `event`.
    public static func line(_ event: NetworkEvent) -> String {
        let text: String
        switch event.kind {
        case .callStarted: text = "started"
        case .attemptStarted: text = "attempt"
        case .retryScheduled(let delay, let reason): text = "retry \(delay) after \(outcome(reason))"
        case .redirectFollowed(let status, let location): text = "redirect \(status) \(location.path)"
        case .cacheHit: text = "cache hit"
        case .cacheMiss: text = "cache miss"
        case .cacheRevalidated: text = "cache revalidated"
        case .response(let response): text = "response \(response.statusCode)"
        case .failure(let error): text = "failure \(error.code.rawValue)"
        case .callEnded(let result, _): text = "ended \(outcome(result))"
        }
        return "\(event.attempt):\(text)"
    }

    private static func outcome(_ result: Result<Response, NetworkError>) -> String {
        switch result {
        case .success(let response): "\(response.statusCode)"
        case .failure(let error): error.code.rawValue
        }
    }
}
