#if canImport(CCurl)
    import NetToolbox
    import NetBase
    import Foundation

    /// A non-blocking pipe a WebSocket loop polls beside its sockets: a byte written from
    /// any thread wakes it (a full pipe wakes it already).
    final class CurlWebSocketWakePipe: Sendable {
        /// The end the loop polls.
        let readDescriptor: Int32
        private let writeDescriptor: Int32

        /// Creates the pipe with `makePipe` (`pipe(2)`; tests pass one that fails).
        /// - Throws: ``NetworkError/transport(reason:underlying:)`` when the pipe cannot be made
        ///   (too many open files, say); nothing was sent.
        init(makePipe: (UnsafeMutablePointer<Int32>) -> Int32 = { pipe($0) }) throws(NetworkError) {
            guard let ends = NonBlockingPipe.make(makePipe) else {
                let code = errno
                throw .transport(
                    reason: "the WebSocket could not get a wake pipe (\(String(cString: strerror(code))), errno \(code)); nothing was sent")
            }
            readDescriptor = ends.read
            writeDescriptor = ends.write
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

        /// Empties the pipe (on the loop's thread, after waking).
        func drain() {
            // One byte per batch of work is written, so one read of 256 nearly always empties it.
            var bytes = [UInt8](repeating: 0, count: 256)
            while POSIX.read(readDescriptor, &bytes, bytes.count) == bytes.count {}
        }
    }
#endif
