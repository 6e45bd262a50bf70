import Foundation
import NetCore
import NetCurl
import NetTestSupport
import Testing

/// Many curl WebSockets at once: they share the WebSocket loops (one thread per core), each
/// costs one descriptor, every one echoes, and closing them gives every descriptor back. The
/// 5,000-connection figures against a NIO client are in Benchmarks/ (`NetBenchmarks --websocket-peer`).
@Suite("Curl WebSockets at scale", .liveServers, .serialized)
struct WebSocketScaleTests {
    /// Connections opened at once (fewer under a sanitizer, which is slower).
    static let count = ProcessInfo.processInfo.environment["NETKIT_SANITIZER"] == "1" ? 40 : 200

    @Test("Hundreds of open WebSockets add no thread per connection and about one descriptor each, all echo, and closing them frees every descriptor")
    func manyConnections() async throws {
        let echo = try SocketServers.echo()
        let provider = SocketServers.provider()
        // Each loop (one per core, connections dealt to them in turn) starts with its first
        // connection: open one per loop so the baseline has their descriptors and threads.
        var warm: [WebSocket] = []
        for _ in 0..<ProcessInfo.processInfo.activeProcessorCount {
            let socket = try await provider.webSocket(SocketTarget(base: echo, path: "echo"))
            try await socket.send(.text("warm"))
            var iterator = socket.messages.makeAsyncIterator()
            _ = try await iterator.next()
            warm.append(socket)
        }
        let threadsBefore = try ProcessCounts.threads()
        let descriptorsBefore = try ProcessCounts.descriptors()

        let sockets = try await withThrowingTaskGroup(of: WebSocket.self) { group in
            for _ in 0..<Self.count {
                group.addTask { try await provider.webSocket(SocketTarget(base: echo, path: "echo")) }
            }
            var sockets: [WebSocket] = []
            for try await socket in group { sockets.append(socket) }
            return sockets
        }
        let threadsOpen = try ProcessCounts.threads()
        let descriptorsOpen = try ProcessCounts.descriptors()
        // Threads: the loops already run; the cooperative pool may add a few for the opens.
        #expect(threadsOpen - threadsBefore <= 8, "threads \(threadsBefore) → \(threadsOpen) for \(Self.count) connections")
        let perConnection = Double(descriptorsOpen - descriptorsBefore) / Double(Self.count)
        #expect(perConnection <= 1.2, "\(perConnection) descriptors per connection")

        try await withThrowingTaskGroup(of: Void.self) { group in
            for (index, socket) in sockets.enumerated() {
                group.addTask {
                    var iterator = socket.messages.makeAsyncIterator()
                    try await socket.send(.text("hello \(index)"))
                    let reply = try await iterator.next()
                    #expect(reply == .text("hello \(index)"))
                }
            }
            try await group.waitForAll()
        }

        for socket in sockets { await socket.close() }
        for socket in warm { await socket.close() }
        // The loop removes each easy handle as its close ends, which closes the socket.
        var descriptorsClosed = try ProcessCounts.descriptors()
        let deadline = ContinuousClock.now + .seconds(5)
        while descriptorsClosed > descriptorsBefore, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(50))
            descriptorsClosed = try ProcessCounts.descriptors()
        }
        #expect(descriptorsClosed <= descriptorsBefore, "descriptors \(descriptorsBefore) → \(descriptorsClosed) after closing all")
    }
}

/// This process's thread and descriptor counts, from /proc.
enum ProcessCounts {
    static func threads() throws -> Int {
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("Threads:") })
        return try #require(Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)))
    }

    static func descriptors() throws -> Int {
        try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
    }
}
