#if canImport(CCurl)
    import NetToolbox
    import NetBase
    import CCurl
    import Foundation

    /// The sockets libcurl opened for one transport (through its open- and close-socket
    /// callbacks), so that the stall watchdog can see which connection the loop thread is reading
    /// and cut off one that holds it captive.
    ///
    /// Thread-safe: the loop thread opens and closes sockets, the watchdog thread measures and
    /// severs them. Severing happens under the same lock as closing, so a descriptor is never
    /// severed after libcurl closed it (and the number went to some other file).
    final class CurlSocketRegistry: Sendable {
        /// A socket's identity: descriptor numbers are reused, identities never.
        typealias SocketID = UInt64

        private struct State {
            var open: [Int32: SocketID] = [:]
            var nextID: SocketID = 1
            /// Sockets severed since the loop last asked, with the error their transfers report.
            var severed: [SocketID: NetworkError] = [:]
        }

        private let state = Locked(State())

        /// Opens a socket for libcurl (loop thread, open-socket callback); -1 on failure.
        func open(family: Int32, type: Int32, protocol: Int32) -> (descriptor: Int32, id: SocketID)? {
            let descriptor = socket(family, type, `protocol`)
            guard descriptor >= 0 else { return nil }
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
            let id = state.withLock { state in
                let id = state.nextID
                state.nextID += 1
                state.open[descriptor] = id
                return id
            }
            return (descriptor, id)
        }

        /// Forgets and closes a socket (loop thread, close-socket callback).
        func close(_ descriptor: Int32) {
            // Forgotten first: once the number is closed it may name someone else's file.
            state.withLock { _ = $0.open.removeValue(forKey: descriptor) }
            _ = Foundation.close(descriptor)
        }

        /// The identity of the open socket `descriptor`, if libcurl opened it through this registry.
        func id(of descriptor: Int32) -> SocketID? {
            state.withLock { $0.open[descriptor] }
        }

        /// How many bytes the application has read from each open socket so far (watchdog thread).
        func bytesConsumed() -> [SocketID: Int64] {
            state.withLock { state in
                var consumed: [SocketID: Int64] = [:]
                for (descriptor, id) in state.open {
                    let count = netkit_socket_bytes_consumed(descriptor)
                    if count >= 0 { consumed[id] = count }
                }
                return consumed
            }
        }

        /// Cuts off the sockets `ids` that are still open: their next read fails, so libcurl lets go
        /// of them; their transfers will report `reason` (watchdog thread).
        func sever(_ ids: Set<SocketID>, reason: NetworkError) {
            state.withLock { state in
                for (descriptor, id) in state.open where ids.contains(id) {
                    if netkit_socket_sever(descriptor) == 0 { state.severed[id] = reason }
                }
            }
        }

        /// The sockets severed since the last call, with their reasons (loop thread).
        func takeSevered() -> [SocketID: NetworkError] {
            state.withLock { state in
                guard !state.severed.isEmpty else { return [:] }
                defer { state.severed.removeAll() }
                return state.severed
            }
        }
    }
#endif
