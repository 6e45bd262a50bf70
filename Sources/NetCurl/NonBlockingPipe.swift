#if canImport(CCurl)
    import NetBase
    import Foundation

    /// A pipe whose ends never block and are closed on `exec`: the wake-up channel a poller
    /// (an engine loop, a WebSocket loop) watches beside its sockets.
    enum NonBlockingPipe {
        /// The two ends, or `nil` when `makePipe` (`pipe(2)`; tests pass one that fails) fails;
        /// `errno` then says why.
        static func make(_ makePipe: (UnsafeMutablePointer<Int32>) -> Int32 = { pipe($0) }) -> (read: Int32, write: Int32)? {
            var descriptors: [Int32] = [-1, -1]
            guard makePipe(&descriptors) == 0 else { return nil }
            for descriptor in descriptors {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            }
            return (descriptors[0], descriptors[1])
        }
    }
#endif
