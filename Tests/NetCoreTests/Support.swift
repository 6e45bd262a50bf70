import NetTransportSupport
import NetToolbox
import Foundation
import NetCore
import Testing
import NetTestSupport

// MARK: - Targets

/// Two independent target enums, for `AnyTarget`.
enum UsersAPI: TargetType {
    case user(String)
    var baseURL: URL { URL(string: "https://users.example.com")! }
    var path: String {
        switch self {
        case .user(let name): "users/\(name)"
        }
    }
    var method: HTTPMethod { .get }
    var content: RequestContent { .plain }
    var sampleResponse: SampleResponse { .json(#"{"kind": "user"}"#) }
}

enum PostsAPI: TargetType {
    case create(title: String)
    var baseURL: URL { URL(string: "https://posts.example.com/v2")! }
    var path: String { "posts" }
    var method: HTTPMethod { .post }
    var content: RequestContent {
        switch self {
        case .create(let title): .form(["title": title])
        }
    }
    var headers: [String: String] { ["X-Posts": "1"] }
    var sampleResponse: SampleResponse { .json(#"{"kind": "post"}"#, statusCode: 201) }
}

// MARK: - Recording

/// A thread-safe list of the events hooks and transports saw, in order.
final class Recorder: Sendable {
    private let events = Locked<[String]>([])

    func record(_ event: String) {
        events.withLock { $0.append(event) }
    }

    var all: [String] { events.withLock { $0 } }

    /// The events that end with `.hook`, e.g. `"prepare"`.
    func calls(of hook: String) -> [String] {
        all.filter { $0.hasSuffix("." + hook) }
    }
}

/// A plugin that records each hook as `"<name>.<hook>"` and answers with the given closures.
struct RecordingPlugin: Plugin {
    let name: String
    let recorder: Recorder
    var onPrepare: @Sendable (inout Request) async throws -> PrepareAction = { _ in .proceed }
    var onWillSend: @Sendable (Request) async -> SendAction = { _ in .proceed }
    var onSucceed: @Sendable (Response, Request) async -> SucceedAction = { _, _ in .proceed }
    var onFailure: @Sendable (NetworkError, Request) async -> FailureAction = { _, _ in .proceed }
    var onProcess: @Sendable (Result<Response, NetworkError>, Request) async -> Result<Response, NetworkError> = { result, _ in result }

    init(_ name: String, _ recorder: Recorder) {
        self.name = name
        self.recorder = recorder
    }

    func prepare(_ request: inout Request) async throws -> PrepareAction {
        recorder.record("\(name).prepare")
        return try await onPrepare(&request)
    }

    func willSend(_ request: Request) async -> SendAction {
        recorder.record("\(name).willSend")
        return await onWillSend(request)
    }

    func succeed(_ response: Response, for request: Request) async -> SucceedAction {
        recorder.record("\(name).succeed")
        return await onSucceed(response, request)
    }

    func failure(_ error: NetworkError, for request: Request) async -> FailureAction {
        recorder.record("\(name).failure")
        return await onFailure(error, request)
    }

    func process(_ result: Result<Response, NetworkError>, for request: Request) async -> Result<Response, NetworkError> {
        recorder.record("\(name).process")
        return await onProcess(result, request)
    }
}

/// Every request a transport received, thread-safe.
final class TransportLog: Sendable {
    private let requests = Locked<[Request]>([])

    func append(_ request: Request) {
        requests.withLock { $0.append(request) }
    }

    var count: Int { requests.withLock { $0.count } }
    var all: [Request] { requests.withLock { $0 } }
    var last: Request? { requests.withLock { $0.last } }
}

extension StubTransport {
    /// A `.custom` stub that logs every request, then answers with `answer` (default: the
    /// target's sample response, marked as a stub).
    static func counting(
        _ log: TransportLog,
        answer: @escaping @Sendable (Request) async throws -> Response = { request in
            let sample = request.target.sampleResponse
            if let error = sample.error { throw error }
            return Response(
                statusCode: sample.statusCode, headers: sample.headers, data: sample.data,
                request: request, source: .stub)
        }
    ) -> StubTransport {
        StubTransport(
            behavior: .custom { request in
                log.append(request)
                return try await answer(request)
            })
    }
}

/// A one-shot signal one task fires and another awaits.
final class Signal: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream<Void>.makeStream()
    }

    func fire() { continuation.yield() }

    /// Returns once `fire()` has been called (at any time before or after this call).
    func wait() async {
        for await _ in stream { return }
    }
}

// MARK: - Helpers

/// Builds `target` through a provider and returns the request the transport received.
func sentRequest<T: TargetType>(
    for target: T, configuration: ProviderConfiguration = ProviderConfiguration(),
    sourceLocation: SourceLocation = #_sourceLocation
) async throws -> Request {
    let log = TransportLog()
    let provider = Provider<T>(transport: StubTransport.counting(log), configuration: configuration)
    _ = try await provider.request(target)
    return try #require(log.last, sourceLocation: sourceLocation)
}

/// The error a request failed with, or an issue when it succeeded.
func failure<T: TargetType>(
    of target: T, on provider: Provider<T>, sourceLocation: SourceLocation = #_sourceLocation
) async -> NetworkError? {
    do {
        let response = try await provider.request(target)
        Issue.record("expected a failure, got \(response)", sourceLocation: sourceLocation)
        return nil
    } catch {
        return error
    }
}

/// The body bytes a request carries when held in memory.
func bodyText(_ request: Request) -> String? {
    request.body.inMemoryData.map { String(decoding: $0, as: UTF8.self) }
}

/// The part of the URL after `?`, exactly as sent (still percent-encoded).
func rawQuery(_ url: URL) -> String? {
    let text = url.absoluteString
    guard let mark = text.firstIndex(of: "?") else { return nil }
    return String(text[text.index(after: mark)...])
}

/// Reads a whole body with `BodyStreamReader`, as a transport would.
func streamedBytes(of body: RequestBody) throws -> Data {
    let reader = BodyStreamReader(body)
    var output = Data()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 7, alignment: 1)
    defer { buffer.deallocate() }
    while true {
        let count = try reader.read(into: buffer)
        if count == 0 { return output }
        output.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
}

extension NetworkError {
    /// The case name, for compact expectations.
    var caseName: String { code.rawValue }
}

extension Result where Success == Response, Failure == NetworkError {
    var error: NetworkError? {
        if case .failure(let error) = self { return error }
        return nil
    }

    var response: Response? {
        if case .success(let response) = self { return response }
        return nil
    }
}

/// Errors seen by a hook, thread-safe.
final class ErrorLog: Sendable {
    private let errors = Locked<[NetworkError?]>([])
    func append(_ error: NetworkError?) { errors.withLock { $0.append(error) } }
    var all: [NetworkError?] { errors.withLock { $0 } }
}
