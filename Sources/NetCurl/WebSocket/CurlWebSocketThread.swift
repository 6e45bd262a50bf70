#if canImport(CCurl)
    import NetBase
    import Foundation

    /// Starts a WebSocket loop's thread with `pthread_create`, so a system that refuses a thread
    /// (a tasks or memory limit) is an error naming the cause instead of an open that never ends.
    enum CurlWebSocketThread {
        /// The loop's stack: it keeps no large buffer on the stack (its read buffer is on the heap).
        static let stackSize = 512 * 1024

        private final class Body {
            let run: @Sendable () -> Void

            init(_ run: @escaping @Sendable () -> Void) {
                self.run = run
            }
        }

        /// Runs `body` on a new detached thread named `name` (at most 15 bytes on Linux).
        /// - Throws: ``NetworkError/transport(reason:underlying:)`` when the thread cannot be created.
        static func start(name: String, _ body: @escaping @Sendable () -> Void) throws(NetworkError) {
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setstacksize(&attributes, stackSize)
            pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
            let threadName = String(decoding: name.utf8.prefix(15), as: UTF8.self)
            let context = Unmanaged.passRetained(
                Body {
                    // Foundation names the current thread with pthread_setname_np (15 bytes at most on Linux).
                    Thread.current.name = threadName
                    body()
                }
            ).toOpaque()
            var thread = pthread_t()
            let code = pthread_create(
                &thread, &attributes,
                { context in
                    Unmanaged<Body>.fromOpaque(context!).takeRetainedValue().run()
                    return nil
                }, context)
            guard code == 0 else {
                Unmanaged<Body>.fromOpaque(context).release()
                throw .transport(
                    reason: "the system refused a thread for the WebSocket loop (\(String(cString: strerror(code))), errno \(code)); nothing was sent")
            }
        }
    }
#endif
