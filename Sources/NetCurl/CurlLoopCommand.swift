#if canImport(CCurl)
    import NetBase
    import CCurl
    import Foundation

    /// Work another thread hands a curl loop (``CurlEngine/submit(_:)``), run on the loop thread.
    enum CurlLoopCommand: Sendable {
        case start(CurlJob)
        case cancel(CurlJobToken)
        /// A paused stream's reader has room again.
        case unpause(CurlJobToken)
        /// A Swift task that prefers this transport's executor, run between libcurl calls.
        case run(UnownedJob)
        case shutdown
    }
#endif
