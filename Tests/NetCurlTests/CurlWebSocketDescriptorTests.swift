#if canImport(CCurl)
    import CCurl
    import Foundation
    @testable import NetBase
    @testable import NetCurl
    import Testing

    /// The curl WebSocket loop's descriptors: what it watches, and its wake pipe.
    @Suite("Curl WebSocket descriptors")
    struct CurlWebSocketDescriptorTests {
        @Test("A socket neither read nor written leaves the epoll set, so a hang-up cannot wake the loop again and again")
        func idleSocketIsNotWatched() {
            #expect(CurlWebSocketSocket.epollEvents(read: false, write: false) == nil)
            let reading = CurlWebSocketSocket.epollEvents(read: true, write: false)
            #expect(reading.map { $0 & netkit_epoll_in != 0 && $0 & netkit_epoll_out == 0 } == true)
            let writing = CurlWebSocketSocket.epollEvents(read: false, write: true)
            #expect(writing.map { $0 & netkit_epoll_out != 0 && $0 & netkit_epoll_in == 0 } == true)
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
