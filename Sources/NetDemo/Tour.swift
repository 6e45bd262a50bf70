import Foundation
import NetBatch
import NetChain
import NetCore
import NetPlugins

/// The demo's sections, in order. Each prints a heading and what it shows.
struct Tour {
    let baseURL: URL?
    let options: Options
    let workDirectory: URL

    private var configuration: ProviderConfiguration {
        ProviderConfiguration(baseURL: baseURL, timeout: .seconds(10))
    }

    /// Stubs without a server; otherwise the default transport (`CurlTransport` on Linux).
    private func transport() -> any Transport {
        baseURL == nil ? StubTransport(behavior: .delayed(.milliseconds(20))) : DefaultTransport.shared
    }

    /// An error message: whole with `--verbose`, otherwise cut at a word boundary.
    private func describe(_ error: any Error) -> String {
        let text = (error as? NetworkError)?.description ?? String(describing: error)
        return options.verbose ? text : Console.excerpt(text)
    }

    func run() async throws {
        heading("1. An API described once")
        print(
            """
              enum DemoAPI: TargetType { case echo(Parameters), status(Int), upload(Data),
                                         drip(bytes:seconds:to:), register(name:), profile(id:), item(Int) }
            """)
        let recording = try await plugins()
        try await decoding()
        try await transfers()
        try await batch()
        try await chain()
        try await pinning()
        try await streaming()
        try await replay(recording)
    }

    // MARK: Sections

    /// Returns the HAR file it recorded.
    private func plugins() async throws -> URL {
        heading("2. A provider with logger, cache, retry and capture plugins")
        let capture = CapturePlugin()
        let provider = Provider<DemoAPI>(
            transport: transport(),
            plugins: [
                LoggerPlugin(verbosity: options.verbose ? .verbose : .compact, output: { print("  log: \($0)") }),
                CachePlugin(storage: .memory(), policy: .cacheElseNetwork, maxAge: .seconds(60)),
                RetryPlugin(maxRetries: 2, baseDelay: .milliseconds(200)),
                capture,
            ], configuration: configuration)

        let first = try await provider.request(.echo(["city": "Lund"]))
        let second = try await provider.request(.echo(["city": "Lund"]))
        print("  first call came from \(first.source), the second from \(second.source)")

        do {
            _ = try await provider.request(.status(503))
        } catch {
            print("  /status/503 was retried by RetryPlugin and then reported: \(describe(error))")
        }

        let har = workDirectory.appendingPathComponent("netkit-demo.har")
        try capture.harData().write(to: har)
        print("  CapturePlugin recorded \(capture.count) exchanges; HAR written to \(har.path)")
        return har
    }

    private func decoding() async throws {
        heading("3. A decoded model")
        let provider = Provider<DemoAPI>(transport: transport(), configuration: configuration)
        let args = try await provider.request(.echo(["language": "Swift", "version": "6"]), as: [String: String].self, atKeyPath: "args")
        let text = args.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")
        print("  request(.echo(...), as: [String: String].self, atKeyPath: \"args\") -> [\(text)]")
    }

    private func transfers() async throws {
        heading("4. Upload and download with progress")
        let provider = Provider<DemoAPI>(transport: transport(), configuration: configuration)

        let payload = Data(repeating: UInt8(ascii: "n"), count: 3 << 20)
        let upload = provider.transfer(.upload(payload))
        let uploadBar = ProgressBar("upload  ")
        for await event in upload.events {
            if case .progress(let progress) = event, progress.direction == .upload {
                uploadBar.update(progress.fractionCompleted ?? 0, bytes: progress.completedBytes)
            }
        }
        _ = try await upload.response()
        uploadBar.update(1, bytes: Int64(payload.count))
        uploadBar.finish()

        let file = workDirectory.appendingPathComponent("downloads/drip.bin")
        let download = provider.transfer(.drip(bytes: 3_000, seconds: 1.5, to: file))
        let downloadBar = ProgressBar("download")
        for await event in download.events {
            if case .progress(let progress) = event, progress.direction == .download {
                downloadBar.update(Double(progress.completedBytes) / 3_000, bytes: progress.completedBytes)
            }
        }
        let response = try await download.response()
        downloadBar.update(1, bytes: 3_000)
        downloadBar.finish()
        let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? NSNumber)?.intValue ?? 0
        print("  downloaded \(size) bytes to \(response.fileURL?.path ?? file.path)")
    }

    private func batch() async throws {
        heading("5. A batch of 20 requests, 4 at a time")
        let provider = Provider<DemoAPI>(transport: transport(), configuration: configuration)
        let manager = BatchManager(provider: provider, configuration: BatchConfiguration(maxConcurrent: 4))
        let progress = CountProgress(total: 20)
        let result = await manager.run((1...20).map(DemoAPI.item)) { event in
            if case .itemFinished = event { progress.increment() }
        }
        print("  all succeeded: \(result.allSucceeded), results in input order: \(result.count) items")
        guard result.allSucceeded else {
            let first = result.failures.first.map { describe($0.error) } ?? "?"
            throw DemoError("\(result.failures.count) of 20 batch requests failed; the first: \(first)")
        }
    }

    private func chain() async throws {
        heading("6. A chain passing a value from one step to the next")
        let provider = Provider<DemoAPI>(transport: transport(), configuration: configuration)
        let responses = try await Chain(provider, .register(name: "ada"))
            .then { registered in
                let id = try registered.decode(String.self, atKeyPath: "json.id")
                print("  step 1 registered ada and got id \(id)")
                return .profile(id: id)
            }
            .run()
        print("  step 2 asked for \(responses[1].request.url.path) -> \(responses[1].statusCode)")
    }

    private func pinning() async throws {
        heading("7. Certificate pinning through CurlTransport")
        guard baseURL != nil, let url = options.tlsURL, let pin = options.tlsPin, let certificateFile = options.tlsCertificate,
            let certificate = try? Data(contentsOf: certificateFile), let host = url.host
        else {
            print("  skipped: no TLS server given, or running on stubs (scripts/demo starts one; see --help)")
            return
        }
        let tlsConfiguration = ProviderConfiguration(baseURL: url, timeout: .seconds(10))
        let right = Provider<DemoAPI>(
            transport: CurlTransport(),
            plugins: [
                PinningPlugin([try PinningPlugin.Pin(host: host, keyHashes: [pin], certificates: [certificate])])
            ], configuration: tlsConfiguration)
        let response = try await right.request(.secure)
        print("  right pin: \(response.statusCode) over \(response.metrics?.httpVersion ?? "?")")

        let wrong = Provider<DemoAPI>(
            transport: CurlTransport(),
            plugins: [
                PinningPlugin([try PinningPlugin.Pin(host: host, keyHashes: [String(repeating: "A", count: 43) + "="], certificates: [certificate])])
            ], configuration: tlsConfiguration)
        do {
            _ = try await wrong.request(.secure)
            throw DemoError("a wrong pin was accepted")
        } catch let error as NetworkError {
            print("  wrong pin: refused (\(describe(error)))")
        }
    }

    private func streaming() async throws {
        heading("8. A response read line by line as it arrives")
        let provider = Provider<DemoAPI>(transport: transport(), configuration: configuration)
        let stream = provider.stream(.stream(3))
        print("  head: \(try await stream.head.statusCode); the body follows as the server writes it")
        var count = 0
        for try await line in stream.lines {
            count += 1
            print("  line \(count): \(Console.excerpt(line, limit: 70))")
        }
    }

    private func replay(_ har: URL) async throws {
        heading("9. The recording from section 2, replayed without a server")
        let provider = Provider<DemoAPI>(transport: try ReplayTransport(har: har), configuration: configuration)
        let response = try await provider.request(.echo(["city": "Lund"]))
        print("  ReplayTransport answered \(response.statusCode) from \(har.lastPathComponent) (source: \(response.source))")
        do {
            _ = try await provider.request(.echo(["city": "Malmö"]))
        } catch {
            print("  a request that was never recorded fails clearly: \(describe(error))")
        }
    }

    private func heading(_ title: String) {
        print("\n\(title)")
    }
}
