import NetToolbox
import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("Provider entry points")
struct ProviderAPITests {
    /// Collects completion results and fires a signal for each.
    final class Completions: Sendable {
        private let results = Locked<[Result<Response, NetworkError>]>([])
        let arrived = Signal()

        func handler(_ result: Result<Response, NetworkError>) {
            results.withLock { $0.append(result) }
            arrived.fire()
        }

        var all: [Result<Response, NetworkError>] { results.withLock { $0 } }
    }

    // MARK: AnyTarget

    @Test("AnyTarget lets one provider send targets of two different enums")
    func anyTargetMixesEnums() async throws {
        let log = TransportLog()
        let provider = Provider<AnyTarget>(transport: StubTransport.counting(log))
        let user = try await provider.request(AnyTarget(UsersAPI.user("ada")))
        let post = try await provider.request(AnyTarget(PostsAPI.create(title: "Hi there")))

        #expect(user.string() == #"{"kind": "user"}"#)
        #expect(post.statusCode == 201)
        let sent = log.all
        #expect(sent.map(\.url.absoluteString) == ["https://users.example.com/users/ada", "https://posts.example.com/v2/posts"])
        #expect(sent.map(\.method) == [.get, .post])
        #expect(sent[1].headers["X-Posts"] == "1")
        #expect(bodyText(sent[1]) == "title=Hi%20there")
        #expect(sent[1].target is AnyTarget)
    }

    @Test("wrapping an AnyTarget again keeps the original target, and errors name it")
    func anyTargetUnwraps() async throws {
        let wrapped = AnyTarget(AnyTarget(UsersAPI.user("x")))
        #expect(wrapped.base is UsersAPI)
        #expect(wrapped.description == "UsersAPI.user")
        let provider = Provider<AnyTarget>(transport: StubTransport(), configuration: ProviderConfiguration(baseURL: URL(string: "ftp://nope")))
        do {
            _ = try await provider.request(wrapped)
            Issue.record("expected invalidURL")
        } catch {
            #expect(error.description.contains("UsersAPI.user"))
            #expect(!error.description.contains("AnyTarget"))
        }
    }

    // MARK: send(_:completion:)

    @Test("send(_:completion:) calls completion exactly once", arguments: [200, 500])
    func sendCompletesOnce(status: Int) async throws {
        let completions = Completions()
        let provider = Provider<TestTarget>(transport: StubTransport())
        provider.send(TestTarget(sampleResponse: SampleResponse(statusCode: status))) { completions.handler($0) }
        await completions.arrived.wait()
        #expect(completions.all.count == 1)
        #expect(completions.all.first?.response?.statusCode == (status == 200 ? 200 : nil))
        #expect(completions.all.first?.error?.statusCode == (status == 200 ? nil : 500))
    }

    @Test("cancelling send's Cancellable delivers .cancelled to the completion")
    func sendCancellable() async throws {
        let completions = Completions()
        let sent = Signal()
        var observer = RecordingPlugin("Observer", Recorder())
        observer.onWillSend = { _ in
            sent.fire()
            return .proceed
        }
        let provider = Provider<TestTarget>(transport: StubTransport(behavior: .delayed(.seconds(10))), plugins: [observer])
        let handle = provider.send(TestTarget()) { completions.handler($0) }
        #expect(!handle.isCancelled)
        await sent.wait()
        handle.cancel()
        #expect(handle.isCancelled)
        await completions.arrived.wait()
        #expect(completions.all.map { $0.error?.caseName } == ["cancelled"])
    }

    @Test("cancelAll() cancels every in-flight request of the provider")
    func cancelAllCancelsInFlight() async throws {
        let entered = AsyncStream<Void>.makeStream()
        var observer = RecordingPlugin("Observer", Recorder())
        observer.onWillSend = { _ in
            entered.continuation.yield()
            return .proceed
        }
        // cancelAll() ends calls, not tasks: the wait must watch the call (as the stub's delay does).
        let provider = Provider<TestTarget>(transport: StubTransport(behavior: .delayed(.seconds(10))), plugins: [observer])
        let first = Task { try await provider.request(TestTarget(name: "one")) }
        let completions = Completions()
        provider.send(TestTarget(name: "two")) { completions.handler($0) }
        var arrivals = 0
        for await _ in entered.stream {
            arrivals += 1
            if arrivals == 2 { break }
        }
        provider.cancelAll()
        #expect(await networkError(of: first)?.caseName == "cancelled")
        await completions.arrived.wait()
        #expect(completions.all.map { $0.error?.caseName } == ["cancelled"])
    }

    @Test("cancelAll() leaves later requests alone")
    func cancelAllThenNewRequest() async throws {
        let provider = Provider<TestTarget>(transport: StubTransport())
        provider.cancelAll()
        let response = try await provider.request(TestTarget())
        #expect(response.statusCode == 200)
    }

    @Test("a request keeps running when the provider is dropped; completion still arrives")
    func requestOutlivesProvider() async throws {
        let completions = Completions()
        let release = Signal()
        let entered = Signal()
        do {
            let provider = Provider<TestTarget>(
                transport: StubTransport(
                    behavior: .custom { request in
                        entered.fire()
                        await release.wait()
                        return Response(statusCode: 200, data: Data("late".utf8), request: request, source: .stub)
                    }))
            provider.send(TestTarget()) { completions.handler($0) }
            await entered.wait()
        }
        // The caller holds no reference any more; the request is still waiting in the transport.
        release.fire()
        await completions.arrived.wait()
        #expect(completions.all.map { $0.response?.string() } == ["late"])
    }

    // MARK: transfer

    @Test("transfer(_:) yields progress, then .finished as the last event; response() returns the result")
    func transferEvents() async throws {
        let provider = Provider<TestTarget>(transport: StubTransport())
        let transfer = provider.transfer(TestTarget(sampleResponse: SampleResponse(data: Data(repeating: 7, count: 1024))))
        var progress: [TransferProgress] = []
        var finished: [Result<Response, NetworkError>] = []
        for await event in transfer.events {
            #expect(finished.isEmpty, "nothing follows .finished")
            switch event {
            case .progress(let value): progress.append(value)
            case .finished(let result): finished.append(result)
            }
        }
        #expect(!progress.isEmpty)
        #expect(progress.last == TransferProgress(direction: .download, completedBytes: 1024, totalBytes: 1024))
        #expect(progress.last?.fractionCompleted == 1)
        #expect(finished.count == 1)
        #expect(finished.first?.response?.data.count == 1024)
        let response = try await transfer.response()
        #expect(response.data.count == 1024)
    }

    @Test("transfer(_:) of a download ends with the file in place and reports the bytes written")
    func transferDownload() async throws {
        let directory = try TemporaryDirectory()
        let destination = directory.url.appendingPathComponent("out/file.bin")
        let provider = Provider<TestTarget>(transport: StubTransport())
        let transfer = provider.transfer(
            TestTarget(
                content: .download(to: destination, resumable: false),
                sampleResponse: SampleResponse(data: Data(repeating: 7, count: 1024))
            ))
        var progress: [TransferProgress] = []
        for await event in transfer.events {
            if case .progress(let value) = event { progress.append(value) }
        }
        let response = try await transfer.response()
        #expect(response.fileURL == destination)
        #expect(FileManager.default.contents(atPath: destination.path)?.count == 1024)
        #expect(progress.last?.completedBytes == 1024)
        #expect(response.metrics?.bytesReceived == 1024)
    }

    @Test("a cancelled transfer finishes with .cancelled")
    func transferCancel() async throws {
        let provider = Provider<TestTarget>(transport: StubTransport(behavior: .delayed(.seconds(10))))
        let transfer = provider.transfer(TestTarget())
        transfer.cancel()
        var last: TransferEvent?
        for await event in transfer.events { last = event }
        guard case .finished(let result)? = last else {
            Issue.record("expected .finished last, got \(String(describing: last))")
            return
        }
        #expect(result.error?.caseName == "cancelled")
        do {
            _ = try await transfer.response()
            Issue.record("expected cancelled")
        } catch {
            #expect(error.caseName == "cancelled")
        }
    }
}
