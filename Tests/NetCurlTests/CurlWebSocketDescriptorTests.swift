#if canImport(CCurl)
    import Foundation
    @testable import NetBase
    @testable import NetCurl
    import Testing

    /// The curl WebSocket I/O thread's descriptors: what it polls, and its wake pipe.
    @Suite("Curl WebSocket descriptors")
    struct CurlWebSocketDescriptorTests {
        @Test("A socket neither read nor written is left out of poll, so a hang-up cannot wake the I/O thread in a loop")
        func idleSocketIsNotPolled() {
            let idle = CurlWebSocketSocket.pollDescriptors(socket: 7, read: false, write: false, wake: 9)
            #expect(idle.map(\.fd) == [-1, 9])
            let reading = CurlWebSocketSocket.pollDescriptors(socket: 7, read: true, write: false, wake: 9)
            #expect(reading.map(\.fd) == [7, 9] && reading[0].events == Int16(POLLIN))
            let writing = CurlWebSocketSocket.pollDescriptors(socket: 7, read: false, write: true, wake: 9)
            #expect(writing[0].fd == 7 && writing[0].events == Int16(POLLOUT))
        }

        @Test("A wake pipe that cannot be made (too many open files) is a clear error, not a crash")
        func wakePipeFailure() {
            #expect {
                _ = try CurlWebSocketWakePipe { _ in
                    errno = EMFILE
                    return -1
                }
            } throws: { error in
                guard case .transport(let reason, _) = error as? NetworkError else { return false }
                return reason.contains("wake pipe") && reason.contains("errno \(EMFILE)")
            }
            #expect(throws: Never.self) { _ = try CurlWebSocketWakePipe() }
        }
    }
#endif
