import Foundation
import NetCore
import NetCurl

/// `--websocket-peer[=N]`: NetKit's curl WebSockets against swift-websocket's `WSClient` (on
/// SwiftNIO), both talking to the same SwiftNIO echo server (`WebSocketEchoServer`, started here).
/// Each measurement runs in a child process of its own (`--websocket-child=…`), so thread,
/// descriptor and memory counts are that client's alone; the clients alternate, three rounds.
///
/// - scale: N connections (default 5,000) opened in waves of 250, each echoing one message, then
///   held open: the time to open them all, threads, descriptors and resident memory.
/// - 64 in flight: 16-byte text messages, 64 unanswered at any time, 100,000 echoed.
/// - 1 MiB: binary messages of 1 MiB, one at a time, 200 echoed.
func webSocketPeerBenchmark(_ value: String) async throws {
    let connections = Int(value) ?? 5_000
    let server = try EchoServer()
    defer { server.stop() }
    let url = server.url
    print("# WebSocket peer benchmark, \(Date()), cores: \(ProcessInfo.processInfo.activeProcessorCount)")
    print("NetKit (CurlTransport) against swift-websocket WSClient (SwiftNIO), same SwiftNIO echo server, three rounds.")
    let rounds = 3
    for kind in ["scale", "small64", "large"] {
        var rows: [String: [[Double]]] = [:]
        for _ in 0..<rounds {
            for client in ["netkit", "nio"] {
                let line = try runTool(CommandLine.arguments[0], ["--websocket-child=\(kind),\(client),\(connections),\(url.absoluteString)"])
                rows[client, default: []].append(line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ").compactMap { Double($0) })
            }
        }
        printPeerTable(kind: kind, connections: connections, rows: rows)
    }
}

private func printPeerTable(kind: String, connections: Int, rows: [String: [[Double]]]) {
    func column(_ client: String, _ index: Int) -> [Double] { rows[client, default: []].compactMap { $0.count > index ? $0[index] : nil } }
    func cell(_ values: [Double], decimals: Int = 0) -> String {
        guard !values.isEmpty else { return "-" }
        let sorted = values.sorted()
        return
            "\(format(sorted[sorted.count / 2], decimals: decimals)) (\(format(sorted.first!, decimals: decimals))-\(format(sorted.last!, decimals: decimals)))"
    }
    func ratio(_ index: Int, inverse: Bool = false) -> String {
        let ours = column("netkit", index).sorted()
        let theirs = column("nio", index).sorted()
        guard !ours.isEmpty, !theirs.isEmpty else { return "-" }
        let (a, b) = (ours[ours.count / 2], theirs[theirs.count / 2])
        return format(inverse ? b / a : a / b, decimals: 2)
    }
    switch kind {
    case "scale":
        print("\n### \(connections) open WebSockets (median, range over the rounds)")
        print("| client | open all (s) | threads | descriptors | per connection | RSS (MiB) |")
        print("|---|---|---|---|---|---|")
        for client in ["netkit", "nio"] {
            let perConnection = column(client, 2).map { $0 / Double(connections) }
            print(
                "| \(client == "netkit" ? "NetKit" : "WSClient") | \(cell(column(client, 0), decimals: 2)) | \(cell(column(client, 1))) | "
                    + "\(cell(column(client, 2))) | \(cell(perConnection, decimals: 2)) | \(cell(column(client, 3))) |")
        }
        print("| NetKit / WSClient | \(ratio(0)) | \(ratio(1)) | \(ratio(2)) | | \(ratio(3)) |")
    default:
        let title = kind == "small64" ? "16-byte messages, 64 in flight" : "1 MiB messages, one at a time"
        print("\n### \(title) (messages per second, CPU µs per message; median, range)")
        print("| client | messages/s | CPU µs/message |")
        print("|---|---|---|")
        for client in ["netkit", "nio"] {
            print("| \(client == "netkit" ? "NetKit" : "WSClient") | \(cell(column(client, 0))) | \(cell(column(client, 1), decimals: 1)) |")
        }
        print("| NetKit / WSClient | \(ratio(0)) | \(ratio(1)) |")
    }
}

/// `--websocket-child=KIND,CLIENT,N,URL`: one measurement, printed as one line of numbers.
func webSocketChild(_ value: String) async throws {
    let parts = value.split(separator: ",").map(String.init)
    guard parts.count == 4, let count = Int(parts[2]), let url = URL(string: parts[3]) else { fatalError("bad --websocket-child") }
    raiseDescriptorLimit()
    let client: any PeerClient = parts[1] == "netkit" ? NetKitPeer() : NIOPeer()
    switch parts[0] {
    case "scale":
        let start = ContinuousClock.now
        try await client.hold(count, url: url) {
            let seconds = (ContinuousClock.now - start).seconds
            print("\(seconds) \(processThreads()) \(processDescriptors()) \(residentMiB())")
        }
    case "small64":
        let (rate, cpu) = try await client.echo(url: url, size: 16, total: 100_000, inFlight: 64)
        print("\(rate) \(cpu)")
    default:
        let (rate, cpu) = try await client.echo(url: url, size: 1 << 20, total: 200, inFlight: 1)
        print("\(rate) \(cpu)")
    }
}

/// What both clients do for the peer benchmark.
protocol PeerClient: Sendable {
    /// Opens `count` connections (each echoes one message), calls `measure` while all are open,
    /// then closes them.
    func hold(_ count: Int, url: URL, measure: @Sendable () -> Void) async throws
    /// Echoes `total` messages of `size` bytes with `inFlight` unanswered at a time; messages per
    /// second and CPU microseconds per message.
    func echo(url: URL, size: Int, total: Int, inFlight: Int) async throws -> (Double, Double)
}

/// Runs the echo loop of `echo(url:size:total:inFlight:)` over any send and receive pair.
func echoLoop(total: Int, inFlight: Int, send: () async throws -> Void, receive: () async throws -> Void) async throws -> (Double, Double) {
    let warmUp = min(total / 10, 1_000)
    for _ in 0..<warmUp {
        try await send()
        try await receive()
    }
    let cpuBefore = processCPUSeconds()
    let start = ContinuousClock.now
    var sent = 0
    for _ in 0..<min(inFlight, total) {
        try await send()
        sent += 1
    }
    for _ in 0..<total {
        try await receive()
        if sent < total {
            try await send()
            sent += 1
        }
    }
    let seconds = (ContinuousClock.now - start).seconds
    return (Double(total) / seconds, (processCPUSeconds() - cpuBefore) / Double(total) * 1_000_000)
}

/// NetKit's curl transport.
struct NetKitPeer: PeerClient {
    let provider = Provider<SocketEcho>(transport: CurlTransport())

    func hold(_ count: Int, url: URL, measure: @Sendable () -> Void) async throws {
        var sockets: [WebSocket] = []
        sockets.reserveCapacity(count)
        let target = SocketEcho(base: url.deletingLastPathComponent())
        for wave in stride(from: 0, to: count, by: 250) {
            try await withThrowingTaskGroup(of: WebSocket.self) { group in
                for _ in wave..<min(wave + 250, count) {
                    group.addTask {
                        let socket = try await provider.webSocket(target)
                        var iterator = socket.messages.makeAsyncIterator()
                        try await socket.send(.text("hi"))
                        _ = try await iterator.next()
                        return socket
                    }
                }
                for try await socket in group { sockets.append(socket) }
            }
        }
        measure()
        for socket in sockets { await socket.close() }
    }

    func echo(url: URL, size: Int, total: Int, inFlight: Int) async throws -> (Double, Double) {
        let socket = try await provider.webSocket(SocketEcho(base: url.deletingLastPathComponent()), configuration: .init(maximumMessageSize: 1 << 24))
        var iterator = socket.messages.makeAsyncIterator()
        let message: WebSocket.Message = size <= 16 ? .text(String(repeating: "a", count: size)) : .binary(Data(repeating: 0x61, count: size))
        let result = try await echoLoop(total: total, inFlight: inFlight, send: { try await socket.send(message) }, receive: { _ = try await iterator.next() })
        await socket.close()
        return result
    }
}

/// This process's thread count (Linux).
func processThreads() -> Int {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Threads:") })
    else { return -1 }
    return Int(line.dropFirst("Threads:".count).trimmingCharacters(in: .whitespaces)) ?? -1
}

/// This process's open descriptors (Linux).
func processDescriptors() -> Int {
    (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count) ?? -1
}

/// Raises the descriptor limit to its hard maximum (5,000 connections need more than 1,024).
func raiseDescriptorLimit() {
    var limit = rlimit()
    guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
    limit.rlim_cur = limit.rlim_max
    _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
}

/// The SwiftNIO echo server (`WebSocketEchoServer`, built beside this executable), on a free port.
final class EchoServer {
    private let process = Process()
    let url: URL

    init() throws {
        let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("WebSocketEchoServer")
        process.executableURL = executable
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        guard let port = Int(String(decoding: line, as: UTF8.self)), let url = URL(string: "ws://127.0.0.1:\(port)/echo") else {
            process.terminate()
            fatalError("WebSocketEchoServer printed no port")
        }
        self.url = url
    }

    func stop() {
        process.terminate()
        process.waitUntilExit()
    }
}
