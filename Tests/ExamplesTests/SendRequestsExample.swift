// Mirrors the README section "Send requests"; keep them in sync.
import NetToolbox
import Foundation
import NetCore
import NetPlugins
import Testing

@Suite("README: Send requests")
struct SendRequestsExample {
    /// The README's placeholder staging server.
    let stagingURL = URL(string: "https://staging.httpbin.test")!

    @Test("README: an error's code, response and cause")
    func errorCodeResponseAndCause() async throws {
        let provider = Provider<HTTPBin>(transport: HTTPBinStub.transport, configuration: ProviderConfiguration(baseURL: stagingURL))
        var printed: [String] = []
        func print(_ items: Any...) { printed.append(items.map { "\($0)" }.joined(separator: " ")) }
        do {
            _ = try await provider.request(.get(["q": "x"]), as: [String: Int].self, atKeyPath: "args")
        } catch {
            switch error.code {
            case .decodingFailed:
                print("status", error.response?.statusCode ?? 0, error.underlyingError ?? "")
            case .timedOut, .connectionFailed, .connectionLost: print("try again later")
            default: print(error)
            }
        }
        #expect(printed.count == 1)
        #expect(printed.first?.hasPrefix("status 200 ") == true, "\(printed)")
        #expect(printed.first?.contains("typeMismatch") == true, "the DecodingError is the cause: \(printed)")
    }

    @Test func everyCallFormOfTheREADMEWorks() async throws {
        let file = temporaryDirectory().appendingPathComponent("bytes.bin")

        let provider = Provider<HTTPBin>(
            transport: HTTPBinStub.transport,  // README: no transport (the platform default)
            plugins: [LoggerPlugin(), RetryPlugin()],
            configuration: ProviderConfiguration(
                baseURL: stagingURL, headers: ["X-App": "1"],
                queryParameters: ["v": "2"], timeout: .seconds(30), maxAttempts: 3)
        )

        let response = try await provider.request(.status(200))  // Response
        let args = try await provider.request(
            .get(["q": "x"]), as: [String: String].self, atKeyPath: "args")

        #expect(response.statusCode == 200)
        #expect(response.request.url.host == "staging.httpbin.test")
        #expect(response.request.headers["X-App"] == "1")
        #expect(response.request.timeout == .seconds(30))
        #expect(args == ["q": "x", "v": "2"])

        var streamed: [Response] = []
        for try await response in provider.responses(.get([:])) { streamed.append(response) }  // provisional (cache) then final
        #expect(streamed.count == 1)  // no cache plugin: only the final response
        #expect(streamed.last?.statusCode == 200)

        let transfer = provider.transfer(.bytes(10_000_000, file))  // progress events
        var fractions: [Double] = []
        var finished = false
        for await event in transfer.events {
            if case .progress(let p) = event { print(p.fractionCompleted ?? 0); fractions.append(p.fractionCompleted ?? 0) }
            if case .finished(.success) = event { finished = true }
        }
        #expect(fractions.last == 1)
        #expect(finished)
        #expect(try await transfer.response().fileURL == file)
        #expect(try FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int == 10_000_000)

        let completion = Locked<[Result<Response, NetworkError>]>([])
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let handle = provider.send(.status(200)) { result in  // completion handler, no async
                completion.update { $0.append(result) }
                done.resume()
            }
            handle.cancel()
            #expect(handle.isCancelled)
        }
        provider.cancelAll()
        // Cancelled at once: the request ends with `.cancelled`, unless it had already finished.
        let results = completion.current
        #expect(results.count == 1)
        switch results.first {
        case .success(let response)?: #expect(response.statusCode == 200)
        case .failure(.cancelled)?: break
        case let other: Issue.record("unexpected completion \(String(describing: other))")
        }
    }

    @Test func cancelAllEndsARequestInFlightWithCancelled() async throws {
        let (sent, signal) = AsyncStream<Void>.makeStream()
        let provider = Provider<HTTPBin>(
            transport: StubTransport(behavior: .delayed(.seconds(30))),
            plugins: [OnWillSend { signal.yield() }])
        let request = Task { try await provider.request(.status(200)) }
        for await _ in sent { break }
        provider.cancelAll()
        let result = await request.result
        guard case .failure(let error as NetworkError) = result, case .cancelled = error else {
            Issue.record("expected .cancelled, got \(result)")
            return
        }
    }
}

extension SendRequestsExample {
    /// The README block, compiled (it uses the platform's default transport, so the tests above run
    /// the same calls on the stub).
    static func readmeSendRequests(stagingURL: URL) async throws {
        let provider = Provider<HTTPBin>(
            plugins: [LoggerPlugin(), RetryPlugin()],  // no transport: the platform default
            configuration: ProviderConfiguration(
                baseURL: stagingURL, headers: ["X-App": "1"],
                queryParameters: ["v": "2"], timeout: .seconds(30), maxAttempts: 3)
        )

        let response = try await provider.request(.status(200))  // Response
        let args = try await provider.request(
            .get(["q": "x"]), as: [String: String].self, atKeyPath: "args")
        print(response.statusCode, args)

        // A completion handler instead of async; streams, progress: see Getting Started.
        let handle = provider.send(.status(200)) { result in print(result) }
        handle.cancel()
        provider.cancelAll()
    }
}
