#if canImport(CCurl)
    import NetBase
    import CCurl
    import Foundation

    /// The caller of a curl job: the continuation its `sendHop` waits on.
    struct CurlJobContinuation: CurlJobCaller {
        let continuation: UnsafeContinuation<CurlReply, any Error>

        func resume(with result: Result<CurlReply, any Error>) {
            continuation.resume(with: result)
        }
    }

    extension ResponseBodySink: CurlJobStream {}

    /// One request handed to a loop thread. Its caller's continuation lives in ``answer``, which
    /// gives it out exactly once (``CurlJobStateMachine``).
    struct CurlJob: Sendable {
        typealias Answer = CurlJobStateMachine<CurlJobContinuation, ResponseBodySink>

        let request: Request
        /// The request's text options, worked out before the job reached the loop.
        let head: CurlRequestHead
        let progress: ProgressHandler?
        let token: CurlJobToken
        /// When the request must have ended, fixed when it was handed to the transport: time spent
        /// waiting in the inbox or for a free connection counts. For a stream: when its head must
        /// have arrived.
        let deadline: ContinuousClock.Instant
        /// Where a streamed 2xx body goes; `nil` for a response received whole.
        let stream: ResponseBodySink?
        /// Who waits for the reply: the caller, then for a stream its sink. Whoever holds the job
        /// answers through it (``headArrived(_:)``, ``end(_:)``); a job is held by one owner at a
        /// time (the inbox, then the loop or the shutdown that settles it).
        private var answer: Answer

        init(
            request: Request, head: CurlRequestHead, progress: ProgressHandler?, continuation: UnsafeContinuation<CurlReply, any Error>,
            token: CurlJobToken, deadline: ContinuousClock.Instant, stream: ResponseBodySink? = nil
        ) {
            self.request = request
            self.head = head
            self.progress = progress
            self.token = token
            self.deadline = deadline
            self.stream = stream
            answer = Answer(caller: CurlJobContinuation(continuation: continuation), stream: stream)
        }

        /// Gives a streamed 2xx head to the caller; false when nobody waits for one.
        mutating func headArrived(_ head: CurlReply) -> Bool {
            let action = answer.headArrived(head)
            action.run()
            if case .none = action { return false }
            return true
        }

        /// Ends the job: the caller gets `result`, or the stream whose head went out ends.
        mutating func end(_ result: Result<CurlReply, any Error>) {
            answer.ended(result).run()
        }
    }
#endif
