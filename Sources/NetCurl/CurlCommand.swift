#if canImport(CCurl)
    import NetBase
    import CCurl
    import Foundation

    /// Work for the loop thread.
    enum CurlCommand: Sendable {
        case start(CurlJob)
        case cancel(CurlJobToken)
        /// A paused stream's reader has room again.
        case unpause(CurlJobToken)
        /// A Swift task that prefers this transport's executor, run between libcurl calls.
        case run(UnownedJob)
        case shutdown
    }
#endif
