import NetBase
import Foundation

/// Why an exchange was stopped before URLSession finished it.
enum ExchangeStopReason: Sendable, CustomStringConvertible {
    case cancelled
    case timedOut
    /// The response broke a rule while arriving (too large, conflicting lengths).
    case failed(NetworkError)

    /// The error the caller or the stream's reader gets.
    var error: NetworkError {
        switch self {
        case .cancelled: .cancelled
        case .timedOut: .timedOut
        case .failed(let error): error
        }
    }

    var description: String {
        switch self {
        case .cancelled: "cancelled"
        case .timedOut: "timedOut"
        case .failed(let error): "failed(\(error))"
        }
    }
}

/// The lifecycle of one URLSession exchange, without any I/O: each event changes the state and
/// returns what the exchange must do, which it does after releasing its lock.
///
/// ```
/// idle ──start──▶ running ──head (stream)──▶ streaming ──complete──▶ completed
///  │                │ └──download claimed──▶ claimedByDownload ──settled──▶ completed
///  │                └──complete──▶ completed
///  └──stop──▶ stoppedBeforeStart ──start──▶ stopped
/// running / streaming ──stop──▶ stopped
/// ```
///
/// Nothing suspends a task (FoundationNetworking starts a resumed data task over). The end states
/// (`stopped`, `completed`) and `claimedByDownload` ignore stops; every event after the end is
/// ignored, so URLSession's late callbacks cannot answer a caller twice.
struct ExchangeStateMachine: Sendable {
    /// Where the exchange is.
    enum State: Sendable, CustomStringConvertible {
        /// Created; the task is not running yet.
        case idle
        /// Stopped before the task started: starting it only fails the caller.
        case stoppedBeforeStart(ExchangeStopReason)
        /// The task runs; the caller waits for the whole response (or a streamed head).
        case running
        /// A streamed 2xx head went to the caller; the body goes to the stream's sink.
        case streaming
        /// A finished download is being moved into place; stops can no longer win.
        case claimedByDownload
        /// Ended by a stop; the caller or the reader got its error.
        case stopped(ExchangeStopReason)
        /// Ended by URLSession's completion; the caller or the reader got the outcome.
        case completed

        var description: String {
            switch self {
            case .idle: "idle"
            case .stoppedBeforeStart(let reason): "stoppedBeforeStart(\(reason))"
            case .running: "running"
            case .streaming: "streaming"
            case .claimedByDownload: "claimedByDownload"
            case .stopped(let reason): "stopped(\(reason))"
            case .completed: "completed"
            }
        }
    }

    /// Who receives the outcome: the caller awaiting the response, or the reader of a stream
    /// whose head the caller already has.
    enum Recipient: Sendable, Equatable {
        case caller
        case stream
    }

    /// What the exchange does after an event.
    enum Action: Sendable, CustomStringConvertible {
        /// Nothing: the event came too late or changes nothing.
        case none
        /// Watch the deadline and resume the task for the first time.
        case startTask
        /// Fail the caller now with the reason: the task is not made or started yet (making it can
        /// wait on FoundationNetworking's busy work queue), and `start` will cancel it.
        case failCaller(ExchangeStopReason)
        /// Cancel the task that was never resumed (the caller already has the reason's error).
        case cancelUnstartedTask(ExchangeStopReason)
        /// Cancel the task and give the reason's error to the recipient.
        case cancelTask(failing: Recipient, ExchangeStopReason)
        /// Give the streamed head to the caller.
        case deliverHead
        /// Keep the bytes in the response body.
        case bufferBody
        /// Pass the bytes to the stream's sink.
        case forwardToStream
        /// Move the finished download into place, then report ``ExchangeStateMachine/downloadSettled()``.
        case moveDownload
        /// The task completed: give its outcome to the recipient.
        case finish(Recipient)

        var description: String {
            switch self {
            case .none: "none"
            case .startTask: "startTask"
            case .failCaller(let reason): "failCaller(\(reason))"
            case .cancelUnstartedTask(let reason): "cancelUnstartedTask(\(reason))"
            case .cancelTask(let recipient, let reason): "cancelTask(failing: \(recipient), \(reason))"
            case .deliverHead: "deliverHead"
            case .bufferBody: "bufferBody"
            case .forwardToStream: "forwardToStream"
            case .moveDownload: "moveDownload"
            case .finish(let recipient): "finish(\(recipient))"
            }
        }
    }

    private(set) var state: State = .idle

    /// Whether the caller has the streamed head (the body goes to the sink).
    var isStreaming: Bool {
        if case .streaming = state { return true }
        return false
    }

    /// Why the exchange stopped, once it has.
    var stopReason: ExchangeStopReason? {
        switch state {
        case .stoppedBeforeStart(let reason), .stopped(let reason): reason
        default: nil
        }
    }

    /// The task is ready to run.
    mutating func start() -> Action {
        switch state {
        case .idle:
            state = .running
            return .startTask
        case .stoppedBeforeStart(let reason):
            state = .stopped(reason)
            return .cancelUnstartedTask(reason)
        case .running, .streaming, .claimedByDownload, .stopped, .completed:
            return .none
        }
    }

    /// Cancellation, the deadline, or a response that broke a rule.
    mutating func stop(_ reason: ExchangeStopReason) -> Action {
        switch state {
        case .idle:
            state = .stoppedBeforeStart(reason)
            return .failCaller(reason)
        case .running:
            state = .stopped(reason)
            return .cancelTask(failing: .caller, reason)
        case .streaming:
            state = .stopped(reason)
            return .cancelTask(failing: .stream, reason)
        case .stoppedBeforeStart, .claimedByDownload, .stopped, .completed:
            return .none
        }
    }

    /// A 2xx head arrived for a streamed request.
    mutating func streamedHeadReceived() -> Action {
        guard case .running = state else { return .none }
        state = .streaming
        return .deliverHead
    }

    /// Body bytes arrived.
    func dataReceived() -> Action {
        switch state {
        case .running: .bufferBody
        case .streaming: .forwardToStream
        case .idle, .stoppedBeforeStart, .claimedByDownload, .stopped, .completed: .none
        }
    }

    /// URLSession completed the task (with or without an error).
    mutating func taskCompleted() -> Action {
        switch state {
        case .running:
            state = .completed
            return .finish(.caller)
        case .streaming:
            state = .completed
            return .finish(.stream)
        case .idle, .stoppedBeforeStart, .claimedByDownload, .stopped, .completed:
            return .none
        }
    }

    /// URLSession finished a download; the exchange claims it unless it already ended.
    mutating func downloadFinished() -> Action {
        guard case .running = state else { return .none }
        state = .claimedByDownload
        return .moveDownload
    }

    /// The claimed download was moved into place (or failed to be).
    mutating func downloadSettled() -> Action {
        guard case .claimedByDownload = state else { return .none }
        state = .completed
        return .finish(.caller)
    }
}
