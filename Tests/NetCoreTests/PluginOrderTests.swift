import Foundation
import NetCore
import NetTestSupport
import Testing

@Suite("Plugin hooks run in plugin order")
struct PluginOrderTests {
    @Test("a success calls prepare, willSend, succeed and process on every plugin, in order")
    func successCallsEveryHookInOrder() async throws {
        let recorder = Recorder()
        let provider = Provider<TestTarget>(
            transport: StubTransport.counting(TransportLog()),
            plugins: [RecordingPlugin("A", recorder), RecordingPlugin("B", recorder), RecordingPlugin("C", recorder)]
        )
        _ = try await provider.request(TestTarget())
        #expect(
            recorder.all == [
                "A.prepare", "B.prepare", "C.prepare",
                "A.willSend", "B.willSend", "C.willSend",
                "A.succeed", "B.succeed", "C.succeed",
                "A.process", "B.process", "C.process",
            ])
    }

    @Test("hooks a plugin implements are called on every request without declaring them; defaults are skipped once seen")
    func implementedHooksAlwaysRun() async throws {
        /// Implements only prepare and process, declares nothing.
        struct Partial: Plugin {
            let recorder: Recorder
            func prepare(_ request: inout Request) async throws -> PrepareAction {
                recorder.record("P.prepare")
                return .proceed
            }
            func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> {
                recorder.record("P.process")
                return result
            }
        }
        /// Forwards willSend to a plugin that leaves it at its default: it implements willSend
        /// itself, so it must stay called even though a default runs inside it.
        struct Forwarding: Plugin {
            struct Inner: Plugin {}
            let recorder: Recorder
            func willSend(_ request: Request) async -> SendAction {
                recorder.record("F.willSend")
                return await Inner().willSend(request)
            }
        }
        struct Quiet: Plugin {}
        let recorder = Recorder()
        let provider = Provider<TestTarget>(
            transport: StubTransport(),
            plugins: [Quiet(), Partial(recorder: recorder), Forwarding(recorder: recorder), RecordingPlugin("R", recorder), Quiet()])
        for _ in 0..<3 {
            _ = try await provider.request(TestTarget())
        }
        _ = await failure(of: TestTarget(sampleResponse: SampleResponse(statusCode: 500)), on: provider)
        let once = ["P.prepare", "R.prepare", "F.willSend", "R.willSend", "R.succeed", "P.process", "R.process"]
        let failed = ["P.prepare", "R.prepare", "F.willSend", "R.willSend", "R.failure", "P.process", "R.process"]
        #expect(recorder.all == once + once + once + failed)
    }

    @Test("a default hook leaves a mark naming its plugin type; an implemented one, or one that calls a default inside, does not")
    func defaultHookProbe() async throws {
        struct Quiet: Plugin {}
        struct Forwarding: Plugin {
            func willSend(_ request: Request) async -> SendAction { await Quiet().willSend(request) }
        }
        let request = try await sentRequest(for: TestTarget())
        _ = await Quiet().willSend(request)
        #expect(DefaultHookProbe.wasDefault(DefaultHookProbe.mark(Quiet.self, .willSend)))
        _ = await Forwarding().willSend(request)
        #expect(!DefaultHookProbe.wasDefault(DefaultHookProbe.mark(Forwarding.self, .willSend)))
        _ = await Quiet().process(.failure(.cancelled), for: request)
        #expect(!DefaultHookProbe.wasDefault(DefaultHookProbe.mark(Quiet.self, .willSend)), "another hook's mark")
    }

    @Test("a failure calls failure (not succeed) on every plugin, then process, in order")
    func failureCallsEveryFailureHookInOrder() async throws {
        let recorder = Recorder()
        let provider = Provider<TestTarget>(
            transport: StubTransport(),
            plugins: [RecordingPlugin("A", recorder), RecordingPlugin("B", recorder)]
        )
        let error = await failure(of: TestTarget(sampleResponse: SampleResponse(statusCode: 500)), on: provider)
        #expect(error?.statusCode == 500)
        #expect(
            recorder.all == [
                "A.prepare", "B.prepare", "A.willSend", "B.willSend",
                "A.failure", "B.failure", "A.process", "B.process",
            ])
    }

    @Test("each plugin's prepare sees the mutations of the plugins before it, and the transport sees all")
    func prepareSeesEarlierMutations() async throws {
        let recorder = Recorder()
        let seenByB = TransportLog()
        var a = RecordingPlugin("A", recorder)
        a.onPrepare = { request in
            request.headers["X-Trace"] = "1"
            return .proceed
        }
        var b = RecordingPlugin("B", recorder)
        b.onPrepare = { request in
            seenByB.append(request)
            request.headers["X-Trace"] = (request.headers["x-trace"] ?? "none") + ",2"
            request.url = request.url.appendingPathComponent("more")
            return .proceed
        }
        let log = TransportLog()
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [a, b])
        let response = try await provider.request(TestTarget())

        #expect(seenByB.last?.headers["X-Trace"] == "1")
        let sent = try #require(log.last)
        #expect(sent.headers["X-Trace"] == "1,2")
        #expect(sent.url.absoluteString == "https://api.example.com/items/more")
        #expect(response.request.headers["X-Trace"] == "1,2", "the response carries the request as sent")
    }

    @Test("willSend sees the final request after every prepare")
    func willSendSeesFinalRequest() async throws {
        let recorder = Recorder()
        let seen = TransportLog()
        var a = RecordingPlugin("A", recorder)
        a.onWillSend = { request in
            seen.append(request)
            return .proceed
        }
        var b = RecordingPlugin("B", recorder)
        b.onPrepare = { request in
            request.headers["Authorization"] = "Bearer t"
            return .proceed
        }
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [a, b])
        _ = try await provider.request(TestTarget())
        #expect(seen.last?.headers["authorization"] == "Bearer t")
    }

    @Test("process transforms the result in plugin order, each seeing the previous one's output")
    func processChainsInOrder() async throws {
        let recorder = Recorder()
        func appending(_ name: String) -> RecordingPlugin {
            var plugin = RecordingPlugin(name, recorder)
            plugin.onProcess = { result, _ in
                result.map { response in
                    var response = response
                    response.data.append(Data(name.utf8))
                    return response
                }
            }
            return plugin
        }
        let provider = Provider<TestTarget>(transport: StubTransport(), plugins: [appending("A"), appending("B"), appending("C")])
        let response = try await provider.request(TestTarget(sampleResponse: SampleResponse(data: Data("x".utf8))))
        #expect(response.string() == "xABC")
    }

    @Test("a plugin's default name is its type name")
    func defaultPluginNameIsTypeName() {
        struct QuietPlugin: Plugin {}
        #expect(QuietPlugin().name == "QuietPlugin")
    }

    @Test("hooks a plugin does not implement change nothing")
    func defaultHooksChangeNothing() async throws {
        struct QuietPlugin: Plugin {}
        let log = TransportLog()
        let provider = Provider<TestTarget>(transport: StubTransport.counting(log), plugins: [QuietPlugin(), QuietPlugin()])
        let response = try await provider.request(TestTarget(headers: ["X-A": "1"], sampleResponse: .json("[1]")))
        #expect(response.statusCode == 200)
        #expect(response.string() == "[1]")
        #expect(log.count == 1)
        #expect(log.last?.headers["X-A"] == "1")
    }
}
