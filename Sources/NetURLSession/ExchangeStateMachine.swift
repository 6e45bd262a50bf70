import Foundation
import NetBase

/// The lifecycle of one URLSession exchange, without any I/O: each event changes the state and
/// returns what the exchange must do, which it does after releasing its lock.
///
/// ```
/// created ──wait──▶ waiting ──start──▶ running ──head (stream)──▶ streaming ──complete──▶ completed
///  │                 │                   │ └──download finished──▶ claimedByDownload ──settled──▶ completed
///  │                 │                   └──complete──▶ completed
///  └──stop──▶ stoppedBeforeStart ◀──stop─┘ ──start──▶ stopped
/// running / streaming ──stop (or a body past its limit)──▶ stopped
/// ```
///
/// The states own what they may act on: the waiting caller's continuation (`waiting`, `running`,
/// `claimedByDownload`), the task (`running`, `streaming`) and the body received so far
/// (`running`). A transition that leaves such a state hands what it owned out in its action, so
/// the exchange resumes the caller from the action, never from a field beside the machine; no
/// state after it holds the caller again, so it is handed out once (the tests drive every
/// sequence of events and count). Generic over the caller and the task so the tests can do so
/// without URLSession.
///
/// Nothing suspends a task (FoundationNetworking starts a resumed data task over). The end states
/// (`stopped`, `completed`) and `claimedByDownload` ignore stops; every event after the end is
/// ignored, so URLSession's late callbacks cannot answer a caller twice.
struct ExchangeStateMachine<Caller: Sendable, Task: Sendable>: Sendable {
    /// Where the exchange is.
    enum State: Sendable, CustomStringConvertible {
        /// Created; the caller does not wait yet.
        case created
        /// The caller waits; its task is being made.
        case waiting(Caller)
        /// Stopped before the task started (the caller got or gets the reason's error); the task
        /// is cancelled when it comes.
        case stoppedBeforeStart(ExchangeStopReason)
        /// The task runs; the caller waits for the whole response (or a streamed head).
        case running(Caller, Task, body: Data)
        /// A streamed 2xx head went to the caller; the body goes to the stream's sink.
        case streaming(Task)
        /// A finished download is being moved into place; stops can no longer win.
        case claimedByDownload(Caller)
        /// Ended by a stop; the caller or the reader got its error.
        case stopped(ExchangeStopReason)
        /// Ended by URLSession's completion; the caller or the reader got the outcome.
        case completed
        /// Only while a transition changes the body in place (so it is never copied).
        case modifying

        var description: String {
            switch self {
            case .created: "created"
            case .waiting: "waiting"
            case .stoppedBeforeStart(let reason): "stoppedBeforeStart(\(reason))"
            case .running(_, _, let body): "running(body: \(body.count))"
            case .streaming: "streaming"
            case .claimedByDownload: "claimedByDownload"
            case .stopped(let reason): "stopped(\(reason))"
            case .completed: "completed"
            case .modifying: "modifying"
            }
        }
    }

    /// Who receives a stop's error: the caller awaiting the response, or the reader of a stream
    /// whose head the caller already has.
    enum Recipient: Sendable {
        case caller(Caller)
        case stream
    }

    /// What the exchange does after an event.
    enum Action: Sendable, CustomStringConvertible {
        /// Nothing: the event came too late or changes nothing.
        case none
        /// Resume the task for the first time.
        case startTask(Task)
        /// Fail the caller now with the reason: the task is not made or started yet (making it can
        /// wait on FoundationNetworking's busy work queue), and `start` will cancel it.
        case failCaller(Caller, ExchangeStopReason)
        /// Cancel the task that was never resumed (the caller already has the reason's error).
        case cancelUnstartedTask(Task)
        /// Cancel the task and give the reason's error to the recipient.
        case cancelTask(Task, failing: Recipient, ExchangeStopReason)
        /// Give the streamed head to the caller.
        case deliverHead(Caller)
        /// Pass the bytes to the stream's sink.
        case forwardToStream
        /// Move the finished download into place, then report ``downloadSettled()``.
        case moveDownload
        /// The task completed (or its download settled): answer the caller from this body.
        case finishCaller(Caller, body: Data)
        /// The streamed task completed: end the stream.
        case finishStream

        var description: String {
            switch self {
            case .none: "none"
            case .startTask: "startTask"
            case .failCaller(_, let reason): "failCaller(\(reason))"
            case .cancelUnstartedTask: "cancelUnstartedTask"
            case .cancelTask(_, .caller, let reason): "cancelTask(failing: caller, \(reason))"
            case .cancelTask(_, .stream, let reason): "cancelTask(failing: stream, \(reason))"
            case .deliverHead: "deliverHead"
            case .forwardToStream: "forwardToStream"
            case .moveDownload: "moveDownload"
            case .finishCaller(_, let body): "finishCaller(body: \(body.count))"
            case .finishStream: "finishStream"
            }
        }
    }

    private(set) var state: State = .created

    /// Whether the caller has the streamed head (the body goes to the sink).
    var isStreaming: Bool {
        if case .streaming = state { return true }
        return false
    }

    /// Whether the exchange still has a deadline to keep (someone waits for it).
    var hasDeadline: Bool {
        switch state {
        case .waiting, .running, .streaming, .claimedByDownload: true
        case .created, .stoppedBeforeStart, .stopped, .completed, .modifying: false
        }
    }

    /// Why the exchange stopped, once it has.
    var stopReason: ExchangeStopReason? {
        switch state {
        case .stoppedBeforeStart(let reason), .stopped(let reason): reason
        default: nil
        }
    }

    /// The running task, for progress polling.
    var task: Task? {
        switch state {
        case .running(_, let task, _), .streaming(let task): task
        default: nil
        }
    }

    /// Body bytes kept so far (responses received in memory).
    var receivedBytes: Int {
        if case .running(_, _, let body) = state { return body.count }
        return 0
    }

    /// The caller waits for the response. A caller that comes after a stop is failed at once;
    /// a second caller is a bug in the transport and fails too (it is never dropped).
    mutating func wait(_ caller: Caller) -> Action {
        switch state {
        case .created:
            state = .waiting(caller)
            return .none
        case .stoppedBeforeStart(let reason), .stopped(let reason):
            return .failCaller(caller, reason)
        case .waiting, .running, .streaming, .claimedByDownload, .completed, .modifying:
            return .failCaller(caller, .failed(.transport(reason: "an exchange was awaited twice")))
        }
    }

    /// The task was made and is ready to run.
    mutating func start(_ task: Task) -> Action {
        switch state {
        case .waiting(let caller):
            state = .running(caller, task, body: Data())
            return .startTask(task)
        case .stoppedBeforeStart(let reason):
            state = .stopped(reason)
            return .cancelUnstartedTask(task)
        case .created, .running, .streaming, .claimedByDownload, .stopped, .completed, .modifying:
            // A task made before anyone waits, or a second one: never run.
            return .cancelUnstartedTask(task)
        }
    }

    /// Cancellation, the deadline, or a response that broke a rule.
    mutating func stop(_ reason: ExchangeStopReason) -> Action {
        switch state {
        case .created:
            state = .stoppedBeforeStart(reason)
            return .none
        case .waiting(let caller):
            state = .stoppedBeforeStart(reason)
            return .failCaller(caller, reason)
        case .running(let caller, let task, _):
            state = .stopped(reason)
            return .cancelTask(task, failing: .caller(caller), reason)
        case .streaming(let task):
            state = .stopped(reason)
            return .cancelTask(task, failing: .stream, reason)
        case .stoppedBeforeStart, .claimedByDownload, .stopped, .completed, .modifying:
            return .none
        }
    }

    /// A 2xx head arrived for a streamed request.
    mutating func streamedHeadReceived() -> Action {
        guard case .running(let caller, let task, _) = state else { return .none }
        state = .streaming(task)
        return .deliverHead(caller)
    }

    /// Body bytes arrived: kept (up to `limit` bytes; past it the exchange stops) or forwarded.
    mutating func dataReceived(_ data: Data, limit: Int64?) -> Action {
        switch state {
        case .running(let caller, let task, var body):
            if let limit, Int64(body.count + data.count) > limit {
                return stop(.failed(.responseTooLarge(limit: limit)))
            }
            state = .modifying  // the body's only reference is `body` now: appended in place
            body.append(data)
            state = .running(caller, task, body: body)
            return .none
        case .streaming:
            return .forwardToStream
        case .created, .waiting, .stoppedBeforeStart, .claimedByDownload, .stopped, .completed, .modifying:
            return .none
        }
    }

    /// URLSession completed the task (with or without an error).
    mutating func taskCompleted() -> Action {
        switch state {
        case .running(let caller, _, let body):
            state = .completed
            return .finishCaller(caller, body: body)
        case .streaming:
            state = .completed
            return .finishStream
        case .created, .waiting, .stoppedBeforeStart, .claimedByDownload, .stopped, .completed, .modifying:
            return .none
        }
    }

    /// URLSession finished a download; the exchange claims it unless it already ended.
    mutating func downloadFinished() -> Action {
        guard case .running(let caller, _, _) = state else { return .none }
        state = .claimedByDownload(caller)
        return .moveDownload
    }

    /// The claimed download was moved into place (or failed to be).
    mutating func downloadSettled() -> Action {
        guard case .claimedByDownload(let caller) = state else { return .none }
        state = .completed
        return .finishCaller(caller, body: Data())
    }
}
