import NetBase

/// Whoever waits for a curl job's reply: the caller's continuation in the transport, a fake in
/// the tests.
protocol CurlJobCaller<Reply>: Sendable {
    associatedtype Reply: Sendable
    /// Hands the caller its answer; ``CurlJobStateMachine`` makes sure this happens once.
    func resume(with result: Result<Reply, any Error>)
}

/// Where a streamed body ends: the stream's sink in the transport, a fake in the tests.
protocol CurlJobStream: Sendable {
    /// Ends the stream, with `error` when the transfer failed.
    func finish(throwing error: NetworkError?)
}

/// Who is owed an answer for one curl job, and the only way to give it.
///
/// The job's continuation lives in this machine's state, never beside it: a transition that
/// answers the caller moves the continuation out into its ``Action`` and leaves a state that holds
/// none, so a second answer finds nobody to resume (``CurlJobStateMachineTests`` checks every
/// sequence of events). ``Action/run()`` is the one place the continuation is resumed. The job
/// reaches its transition from wherever it ends: a streamed head (``headArrived(_:)``), the end of its
/// transfer, a start that failed, a cancel before the start, or the loop's shutdown (``ended(_:)``).
struct CurlJobStateMachine<Caller: CurlJobCaller, Stream: CurlJobStream>: Sendable {
    /// Who is waiting.
    enum State: Sendable {
        /// The caller waits for the reply (for a stream: for its head; the body then goes to `stream`).
        case awaitingReply(Caller, stream: Stream?)
        /// A stream's head went to the caller; the end of the transfer goes to the stream.
        case streaming(Stream)
        /// Everyone was answered; nothing is held.
        case answered
    }

    /// What the owner of the job must do now (``run()``).
    enum Action: Sendable {
        /// Resume the caller with its answer.
        case resume(Caller, Result<Caller.Reply, any Error>)
        /// End the stream (with the failure, if any).
        case finishStream(Stream, NetworkError?)
        /// Nothing: nobody waits any more.
        case none

        /// Does what the action says: the only place a job's caller is resumed.
        func run() {
            switch self {
            case .resume(let caller, let result): caller.resume(with: result)
            case .finishStream(let stream, let error): stream.finish(throwing: error)
            case .none: break
            }
        }
    }

    private(set) var state: State

    /// A job whose caller waits; `stream` receives a streamed 2xx body once the head went out.
    init(caller: Caller, stream: Stream?) {
        state = .awaitingReply(caller, stream: stream)
    }

    /// Whether someone still waits for the reply's head (the caller, not a stream).
    var isAwaitingReply: Bool {
        if case .awaitingReply = state { return true }
        return false
    }

    /// A stream's head arrived: the caller gets it, the stream keeps waiting for the end.
    /// Refused (``Action/none``) for a job without a stream or one already answered.
    mutating func headArrived(_ head: Caller.Reply) -> Action {
        guard case .awaitingReply(let caller, let stream?) = state else { return .none }
        state = .streaming(stream)
        return .resume(caller, .success(head))
    }

    /// The job ended with `result`: the caller gets it, or, once a stream's head went out, the
    /// stream ends (a success ends it cleanly). Later ends find nobody waiting.
    mutating func ended(_ result: Result<Caller.Reply, any Error>) -> Action {
        switch state {
        case .awaitingReply(let caller, _):
            state = .answered
            return .resume(caller, result)
        case .streaming(let stream):
            state = .answered
            switch result {
            case .success: return .finishStream(stream, nil)
            case .failure(let error): return .finishStream(stream, NetworkError(error))
            }
        case .answered:
            return .none
        }
    }
}
