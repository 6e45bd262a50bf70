import Foundation
import NetCore
import NetCurl

/// Echo round trips over one WebSocket to `scripts/ws_echo_server.py` (Python `websockets`):
/// NetKit's curl transport against the `websockets` package's own client on the same server.
/// Sequential: send one message, wait for its echo, repeat.
func webSocketBenchmark(total: Int) async throws {
    guard let base = ProcessInfo.processInfo.environment["NETKIT_WS_URL"].flatMap(URL.init(string:)) else {
        fatalError("NETKIT_WS_URL is not set: run scripts/bench, which starts the WebSocket echo server")
    }
    let provider = Provider<SocketEcho>(transport: CurlTransport())
    print("\n### WebSocket echo, sequential round trips on one connection (messages per second)")
    print("| message | NetKit (curl) | Python websockets client | ratio |")
    print("|---|---|---|---|")
    for (name, size, count) in [("16 B text", 16, total * 2), ("64 KiB binary", 64 * 1024, total / 5)] {
        let socket = try await provider.webSocket(SocketEcho(base: base))
        let payload = Data(repeating: 0x61, count: size)
        let message: WebSocket.Message = size <= 16 ? .text(String(decoding: payload, as: UTF8.self)) : .binary(payload)
        var iterator = socket.messages.makeAsyncIterator()
        for _ in 0..<100 {
            try await socket.send(message)
            _ = try await iterator.next()
        }
        let start = ContinuousClock.now
        for _ in 0..<count {
            try await socket.send(message)
            _ = try await iterator.next()
        }
        let ours = Double(count) / (ContinuousClock.now - start).seconds
        await socket.close()
        let python = try pythonEchoRate(url: base.appendingPathComponent("echo"), size: size, count: count)
        print("| \(name) | \(format(ours)) | \(format(python)) | \(format(ours / python, decimals: 2)) |")
    }
}

/// The echo endpoint.
struct SocketEcho: TargetType {
    var base: URL
    var baseURL: URL { base }
    var path: String { "echo" }
    var method: HTTPMethod { .get }
    var content: RequestContent { .plain }
}

/// Messages per second of the `websockets` client doing the same loop (the server's Python).
func pythonEchoRate(url: URL, size: Int, count: Int) throws -> Double {
    let script = """
        import asyncio, sys, time, websockets
        async def main():
            async with websockets.connect(sys.argv[1], compression=None, max_size=None) as ws:
                message = "a" * int(sys.argv[2]) if int(sys.argv[2]) <= 16 else b"a" * int(sys.argv[2])
                for _ in range(100):
                    await ws.send(message); await ws.recv()
                start = time.perf_counter()
                for _ in range(int(sys.argv[3])):
                    await ws.send(message); await ws.recv()
                print(int(sys.argv[3]) / (time.perf_counter() - start))
        asyncio.run(main())
        """
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
    process.arguments = ["-c", script, url.absoluteString, String(size), String(count)]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Double(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
}
