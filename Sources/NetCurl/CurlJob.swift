#if canImport(CCurl)
    import NetBase
    import CCurl
    import Foundation

    /// One request handed to the loop thread. The continuation is resumed exactly once, by the loop.
    struct CurlJob: Sendable {
        let request: Request
        /// The request's text options, worked out before the job reached the loop.
        let head: CurlRequestHead
        let progress: ProgressHandler?
        let continuation: UnsafeContinuation<CurlReply, any Error>
        let token: CurlJobToken
        /// When the request must have ended, fixed when it was handed to the transport: time spent
        /// waiting in the inbox or for a free connection counts. For a stream: when its head must
        /// have arrived.
        let deadline: ContinuousClock.Instant
        /// Where a streamed 2xx body goes; `nil` for a response received whole.
        var stream: ResponseBodySink? = nil
    }
#endif
