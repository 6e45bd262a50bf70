#if canImport(CCurl)
    import NetBase
    import Foundation

    /// A non-blocking pipe a WebSocket's I/O thread polls beside its socket: a byte written from
    /// any thread wakes it (a full pipe wakes it already).
    final class CurlWebSocketWakePipe: Sendable {
        /// The end the I/O thread polls.
        let readDescriptor: Int32
        private let writeDescriptor: Int32

        init() {
            var descriptors: [Int32] = [-1, -1]
            precondition(pipe(&descriptors) == 0, "NetCurl: pipe failed (errno \(errno))")
            for descriptor in descriptors {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            }
            readDescriptor = descriptors[0]
            writeDescriptor = descriptors[1]
        }

        deinit {
            close(readDescriptor)
            close(writeDescriptor)
        }

        /// Wakes the poller.
        func wake() {
            var byte: UInt8 = 1
            _ = POSIX.write(writeDescriptor, &byte, 1)
        }

        /// Empties the pipe (on the I/O thread, after waking).
        func drain() {
            var bytes = [UInt8](repeating: 0, count: 64)
            while POSIX.read(readDescriptor, &bytes, bytes.count) > 0 {}
        }
    }
#endif
