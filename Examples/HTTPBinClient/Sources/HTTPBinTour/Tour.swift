import Foundation
import HTTPBinAPI
import NetBatch
import NetChain
import NetCore
import NetPlugins

/// The app: one step per feature, each checking what it got back.
struct Tour {
    let baseURL: URL
    /// The WebSocket echo server (`scripts/ws_echo_server.py`), if one runs: step 9 needs it.
    var webSocketURL: URL? = nil
    /// Records every attempt of the main provider; its HAR file feeds the replay step.
    let capture = CapturePlugin()
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("httpbin-tour-\(ProcessInfo.processInfo.processIdentifier)")

    /// The provider most steps share: a compact log, a memory cache, retries and a capture.
    var provider: Provider<HTTPBin> {
        Provider<HTTPBin>(
            plugins: [
                LoggerPlugin(output: { print("  log: \($0)") }),
                CachePlugin(storage: .memory(), policy: .cacheElseNetwork, maxAge: .seconds(60)),
                RetryPlugin(maxRetries: 2, baseDelay: .milliseconds(50)),
                capture,
            ],
            configuration: ProviderConfiguration(baseURL: baseURL, timeout: .seconds(10)))
    }

    func run() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let provider = provider
        try await decode(provider)
        try await cache(provider)
        try await retry(provider)
        try await batch(provider)
        try await chain(provider)
        try await stream(provider)
        try await download(provider)
        try await replay()
        try await webSocket()
    }

    /// A JSON body out, the echoed JSON decoded back, below httpbin's `json` key.
    func decode(_ provider: Provider<HTTPBin>) async throws {
        step("1. request and decode")
        let sent = Payload(name: "ada", count: 3)
        let echoed = try await provider.request(.post(sent), as: Payload.self, atKeyPath: "json")
        try check(echoed == sent, "httpbin echoed \(echoed), not \(sent)")
        print("  sent and decoded \(echoed)")
    }

    /// The second identical GET is answered by `CachePlugin` without the network.
    func cache(_ provider: Provider<HTTPBin>) async throws {
        step("2. CachePlugin")
        let first = try await provider.request(.get(["q": "swift"]))
        let second = try await provider.request(.get(["q": "swift"]))
        try check(first.source == .network && second.source == .cache, "sources \(first.source), \(second.source)")
        let args = try second.decode([String: String].self, atKeyPath: "args")
        print("  first from the \(first.source), second from the \(second.source): \(args)")
    }

    /// A 503 is retried twice by `RetryPlugin`, then reported with its response.
    func retry(_ provider: Provider<HTTPBin>) async throws {
        step("3. RetryPlugin")
        let before = capture.count
        do {
            _ = try await provider.request(.status(503))
            throw TourError("a 503 succeeded")
        } catch let error as NetworkError {
            try check(error.statusCode == 503, "expected a 503, got \(error)")
            try check(capture.count - before == 3, "\(capture.count - before) attempts, not 3")
            print("  3 attempts, then: \(error)")
        }
    }

    /// Ten requests, four at a time; the results come back in input order.
    func batch(_ provider: Provider<HTTPBin>) async throws {
        step("4. a batch (NetBatch)")
        let ids = (1...10).map { "m-\($0)" }
        let manager = BatchManager(provider: provider, configuration: BatchConfiguration(maxConcurrent: 4))
        let result = await manager.run(ids.map { HTTPBin.member(id: $0) })
        try check(result.allSucceeded, "\(result.failures.count) of \(ids.count) failed")
        let paths = try result.map { try $0.result.get().decode(String.self, atKeyPath: "url") }
        try check(zip(paths, ids).allSatisfy { $0.hasSuffix("/\($1)") }, "out of order: \(paths)")
        print("  \(result.count) members, in input order")
    }

    /// Register, then read the member back by the id the first answer carried.
    func chain(_ provider: Provider<HTTPBin>) async throws {
        step("5. a chain (NetChain)")
        let responses = try await Chain(provider, .register(name: "ada"))
            .then { registered in .member(id: try registered.decode(Member.self, atKeyPath: "json").id) }
            .run()
        try check(responses.count == 2, "\(responses.count) steps")
        let url = try responses[1].decode(String.self, atKeyPath: "url")
        try check(url.hasSuffix("/members/m-ada"), "step 2 asked for \(url)")
        print("  registered ada, then read \(url)")
    }

    /// The body read line by line as httpbin writes it.
    func stream(_ provider: Provider<HTTPBin>) async throws {
        step("6. a stream")
        let stream = provider.stream(.stream(lines: 3))
        try check(try await stream.head.statusCode == 200, "head")
        var lines = 0
        for try await line in stream.lines where !line.isEmpty { lines += 1 }
        try check(lines == 3, "\(lines) lines, not 3")
        print("  read \(lines) lines as they arrived")
    }

    /// 64 KiB streamed to a file, with progress events.
    func download(_ provider: Provider<HTTPBin>) async throws {
        step("7. a download with progress")
        let file = folder.appendingPathComponent("bytes.bin")
        let transfer = provider.transfer(.bytes(65_536, to: file))
        var events = 0
        for await event in transfer.events {
            if case .progress = event { events += 1 }
        }
        let response = try await transfer.response()
        let size = try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int
        try check(size == 65_536 && response.statusCode == 200, "\(size ?? 0) bytes at \(file.path)")
        print("  \(size ?? 0) bytes in \(file.lastPathComponent), \(events) progress events")
    }

    /// Everything the capture recorded, exported as HAR and answered again without a server.
    func replay() async throws {
        step("8. record and replay (CapturePlugin, ReplayTransport)")
        let har = folder.appendingPathComponent("tour.har")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try capture.harData().write(to: har)
        let offline = Provider<HTTPBin>(
            transport: try ReplayTransport(har: har), configuration: ProviderConfiguration(baseURL: baseURL))
        let echoed = try await offline.request(.post(Payload(name: "ada", count: 3)), as: Payload.self, atKeyPath: "json")
        try check(echoed.name == "ada", "replayed \(echoed)")
        print("  \(capture.count) exchanges in \(har.lastPathComponent); the POST replayed: \(echoed)")
    }

    func step(_ title: String) { print("\n\(title)") }

    func check(_ condition: Bool, _ failure: @autoclosure () -> String) throws {
        if !condition { throw TourError(failure()) }
    }
}

/// A step that did not get what it expected.
struct TourError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
