import Foundation
import NetCore
import Testing
import NetTestSupport

/// `provider.stream(_:)` on both transports: head first, the body in order, backpressure,
/// deadlines between chunks, cancellation.
@Suite(.liveServers, .serialized)
struct StreamTests {
    @Test("A streamed body arrives whole and in order after its head", arguments: TransportKind.allCases)
    func wholeBody(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let size = 3 << 20
        let stream = Provider<HostileTarget>(transport: kind.make()).stream(HostileTarget(path: "/range/\(size)", validation: .successCodes))
        let head = try await stream.head
        #expect(head.statusCode == 200)
        #expect(head.data.isEmpty)
        var received = Data()
        for try await chunk in stream { received.append(chunk) }
        #expect(received.count == size)
        #expect(received.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) })
    }

    @Test("A slow reader gets the body whole and in order, never a repeated byte", arguments: TransportKind.allCases)
    func slowReaderNeverSeesRepeatedBytes(kind: TransportKind) async throws {
        if skipsFloodUnderSanitizer(kind) { return }
        _ = try TestServers.require("NETKIT_FAULT_URL")
        // curl pauses the transfer again and again. URLSession must not: a resumed data task
        // starts over (the request again, then the body from its first byte) and a suspend can
        // abort the process inside FoundationNetworking; its reader's backlog is held instead.
        let size = 8 << 20
        for _ in 0..<3 {
            let stream = Provider<HostileTarget>(transport: kind.make())
                .stream(HostileTarget(path: "/range/\(size)", validation: .successCodes), options: StreamOptions(bufferBytes: 256 << 10))
            _ = try await stream.head
            try await Task.sleep(for: .milliseconds(200))
            var received = Data()
            for try await chunk in stream {
                received.append(chunk)
                if received.count % (1 << 20) < chunk.count { try await Task.sleep(for: .milliseconds(50)) }
            }
            #expect(received.count == size, "\(received.count) bytes of a \(size)-byte body")
            #expect(received.enumerated().allSatisfy { $0.element == UInt8($0.offset % 251) }, "a byte out of place")
        }
    }

    @Test("URLSession: a reader far behind ends the stream with a clear error, memory bounded")
    func urlSessionReaderFarBehind() async throws {
        if skipsFloodUnderSanitizer(.urlSession) { return }
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let key = UUID().uuidString
        let transport = URLSessionTransport()
        let target = HostileTarget(
            path: "/huge-length", content: .query(["mb": 160, "key": key]), timeout: .seconds(30), maxResponseBytes: 1 << 30,
            validation: .successCodes)
        let stream = Provider<HostileTarget>(transport: transport).stream(target)
        _ = try await stream.head
        try await Task.sleep(for: .seconds(2))
        var received = 0
        do {
            for try await chunk in stream { received += chunk.count }
            Issue.record("the whole 160 MiB was buffered for a reader that did not read")
        } catch {
            #expect(String(describing: error).contains("fell more than"), "\(error)")
        }
        #expect(received <= 80 << 20, "\(received) bytes were held for the reader")
        await awaitStoppedTransfers(of: transport)
        _ = try await settledFaultCounter(key, within: .seconds(20))
    }

    @Test("A non-2xx head fails with unacceptableStatus and its body, before any chunk", arguments: TransportKind.allCases)
    func unacceptableHead(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let stream = Provider<HostileTarget>(transport: kind.make()).stream(HostileTarget(path: "/status/503", validation: .successCodes))
        do {
            _ = try await stream.head
            Issue.record("a 503 head was accepted")
        } catch {
            #expect(error.statusCode == 503)
            #expect(error.response?.string()?.contains("503") == true)
        }
    }

    @Test("A 2xx head that validation refuses stops the transfer; the body is not read on", arguments: TransportKind.allCases)
    func refusedHeadStopsTheTransfer(kind: TransportKind) async throws {
        if skipsFloodUnderSanitizer(kind) { return }
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let key = UUID().uuidString
        // 1 GiB of octet-stream behind a 2xx head and a JSON-only validation. curl gets a buffer
        // large enough that nothing pauses it soon, so only stopping it keeps it from reading on;
        // URLSession keeps the default buffer, where an unstopped transfer stays suspended for
        // ever (awaitStoppedTransfers fails then).
        let target = HostileTarget(
            path: "/huge-length", content: .query(["mb": 1024, "key": key]), timeout: .seconds(30), maxResponseBytes: 2 << 30,
            validation: Validation.successCodes.requiringContentType(["application/json"]))
        let transport = kind.make()
        let stream = Provider<HostileTarget>(transport: transport).stream(target, options: StreamOptions(bufferBytes: kind == .curl ? 768 << 20 : 1 << 20))
        do {
            _ = try await stream.head
            Issue.record("an octet-stream head passed a JSON-only validation")
        } catch {
            guard case .unacceptableContentType = error else {
                Issue.record("expected unacceptableContentType, got \(error)")
                return
            }
        }
        await awaitStoppedTransfers(of: transport)
        // The server's count stops growing once the client has closed the connection. curl stops
        // within its socket buffers. FoundationNetworking has to resume a suspended task to cancel
        // it and then reads on, discarding, until its queue reaches the cancel (README's known
        // limits): it ends, which awaitStoppedTransfers checked, but no byte bound holds for it.
        let settled = try await settledFaultCounter(key, within: .seconds(20))
        #expect(settled != nil, "the server was still sending 20 s after the refusal")
        if kind == .curl, let settled {
            #expect(settled < 64 << 20, "the client read \(settled) bytes of a refused body")
        }
    }

    @Test("Chunks arrive as the server sends them, not at the end", arguments: TransportKind.allCases)
    func incremental(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let stream = Provider<HostileTarget>(transport: kind.make())
            .stream(HostileTarget(path: "/drip", content: .query(["count": 10, "interval_ms": 100]), validation: .successCodes))
        let clock = ContinuousClock()
        let start = clock.now
        var firstAt: Duration?
        var total = 0
        for try await chunk in stream {
            if firstAt == nil { firstAt = clock.now - start }
            total += chunk.count
        }
        #expect(total == 10)
        #expect(firstAt.map { $0 < .milliseconds(600) } == true, "first chunk after \(String(describing: firstAt)); the drip takes 1 s")
    }

    @Test("A silence longer than the idle timeout ends the stream with timedOut", arguments: TransportKind.allCases)
    func idleTimeout(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let target = HostileTarget(path: "/drip", content: .query(["count": 5, "interval_ms": 1500]), timeout: .seconds(10), validation: .successCodes)
        let stream = Provider<HostileTarget>(transport: kind.make()).stream(target, options: StreamOptions(idleTimeout: .milliseconds(500)))
        let clock = ContinuousClock()
        let start = clock.now
        await #expect(throws: NetworkError.self) { for try await _ in stream {} }
        #expect(clock.now - start < .seconds(3))
    }

    @Test("Cancelling the reading task ends the transfer promptly", arguments: TransportKind.allCases)
    func cancellation(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: kind.make())
        let key = UUID().uuidString
        let reader = Task {
            var total = 0
            // URLSession gets a server-paced body: an unpaced one floods FoundationNetworking's
            // callbacks faster than its single delegate queue drains them, and the Python fault
            // server then stays busy writing to the socket until the backlog is gone (seconds),
            // slowing the tests that follow. Cancellation is what this test checks.
            let target =
                kind == .curl
                ? HostileTarget(path: "/endless", content: .query(["key": key]), timeout: .seconds(30), validation: .successCodes)
                : HostileTarget(path: "/sse/drip", content: .query(["count": 100_000, "interval_ms": 1]), timeout: .seconds(30), validation: .successCodes)
            let stream = provider.stream(target)
            do {
                for try await chunk in stream { total += chunk.count }
            } catch {
                return (total, error as? NetworkError)
            }
            return (total, nil)
        }
        try await Task.sleep(for: .milliseconds(500))
        let clock = ContinuousClock()
        let cancelledAt = clock.now
        reader.cancel()
        let (total, error) = await reader.value
        let late = clock.now - cancelledAt
        #expect(total > 0)
        #expect(error?.isCancellation == true, "\(String(describing: error))")
        #expect(late < .milliseconds(NETKIT_SANITIZED ? 1000 : 100), "ended \(late) after the cancel")
    }

    @Test("A reader that stops reading pauses the transfer: the buffer stays bounded (curl)")
    func backpressure() async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let stream = Provider<HostileTarget>(transport: TransportKind.curl.make())
            .stream(
                HostileTarget(path: "/endless", timeout: .seconds(30), validation: .successCodes),
                options: StreamOptions(bufferBytes: 256 << 10))
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()
        let before = residentBytes()
        try await Task.sleep(for: .seconds(1))
        let sink = try await stream.controller.head().sink
        let waiting = sink.deliveredBytes
        // The server would send hundreds of MiB in a second; the transport paused instead.
        #expect(waiting < 4 << 20, "\(waiting) bytes were delivered while nobody read")
        var read = 0
        while read < 64 << 20, let chunk = try await iterator.next() { read += chunk.count }
        let growth = residentBytes() - before
        print("[stream backpressure] paused at \(waiting) delivered bytes; read \(read >> 20) MiB; RSS grew \(growth >> 20) MiB")
        // Under the address sanitizer freed memory sits in quarantine; there only the pause is checked.
        #expect(NETKIT_SANITIZED || growth < 64 << 20)
    }

    /// This process's resident set size.
    func residentBytes() -> Int {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") })
        else { return 0 }
        return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
    }
}

/// Server-Sent Events and lines over both transports, against the fault server's scripted feeds.
@Suite(.liveServers, .serialized)
struct ServerSentEventStreamTests {
    struct Expected: Decodable {
        struct Event: Decodable { let event: String; let data: String; let id: String?; let retry_ms: Int? }
        let events: [Event]
    }

    @Test("Every line-ending style, comments, ids, retry and a BOM parse as the WHATWG rules say", arguments: TransportKind.allCases)
    func mixedFeed(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: kind.make())
        let expected = try await provider.request(HostileTarget(path: "/sse/mixed-expected", validation: .successCodes))
            .decode(Expected.self).events
        var events: [ServerSentEvent] = []
        for try await event in provider.stream(HostileTarget(path: "/sse/mixed", validation: .successCodes)).events {
            events.append(event)
        }
        #expect(events.map(\.event) == expected.map(\.event))
        #expect(events.map(\.data) == expected.map(\.data))
        #expect(events.map(\.id) == expected.map(\.id))
        #expect(events.map(\.retry) == expected.map { $0.retry_ms.map { Duration.milliseconds($0) } })
    }

    @Test("A reset in the middle of a feed ends iteration with an error after the events before it", arguments: TransportKind.allCases)
    func midStreamReset(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        var ids: [String] = []
        do {
            for try await event in Provider<HostileTarget>(transport: kind.make())
                .stream(HostileTarget(path: "/sse/reset", content: .query(["after": 3]), validation: .successCodes)).events
            {
                ids.append(event.id ?? "")
            }
            Issue.record("a reset feed ended normally")
        } catch {
            #expect(error is NetworkError, "\(error)")
        }
        #expect(ids == ["1", "2", "3"])
    }

    @Test("lines splits the body into lines as it arrives", arguments: TransportKind.allCases)
    func lines(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        var lines: [String] = []
        for try await line in Provider<HostileTarget>(transport: kind.make())
            .stream(HostileTarget(path: "/sse/drip", content: .query(["count": 3, "interval_ms": 50]), validation: .successCodes)).lines
        {
            lines.append(line)
        }
        #expect(lines == ["data: 0", "", "data: 1", "", "data: 2", ""])
    }
}

/// `provider.events(_:reconnect:)` against the fault server's resumable feed.
@Suite(.liveServers)
struct ServerSentEventReconnectTests {
    @Test("After a reset the feed reconnects with Last-Event-ID after the server's retry delay", arguments: TransportKind.allCases)
    func resumesAfterReset(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        let provider = Provider<HostileTarget>(transport: kind.make())
        var ids: [String] = []
        for try await event in provider.events(HostileTarget(path: "/sse/resume", validation: .successCodes), reconnect: true) {
            ids.append(event.id ?? "")
            if ids.count == 6 { break }
        }
        #expect(ids == ["1", "2", "3", "4", "5", "6"])
    }

    @Test("Without reconnect the sequence ends with the reset's error", arguments: TransportKind.allCases)
    func noReconnectByDefault(kind: TransportKind) async throws {
        _ = try TestServers.require("NETKIT_FAULT_URL")
        var ids: [String] = []
        do {
            for try await event in Provider<HostileTarget>(transport: kind.make()).events(HostileTarget(path: "/sse/resume", validation: .successCodes)) {
                ids.append(event.id ?? "")
            }
            Issue.record("the reset feed ended normally")
        } catch {
            #expect(error is NetworkError)
        }
        #expect(ids == ["1", "2", "3"])
    }
}
