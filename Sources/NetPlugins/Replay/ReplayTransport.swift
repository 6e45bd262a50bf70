import Foundation
import NetCore

/// A transport that answers requests from a HAR 1.2 file, for deterministic tests without a
/// server (as Ruby's VCR and Python's vcrpy do).
///
/// ```swift
/// let replay = try ReplayTransport(har: fixtures.appending(path: "session.har"))
/// let provider = Provider<API>(transport: replay, plugins: [AuthPlugin(...)])
/// let user = try await provider.request(.user(id: 1), as: User.self)   // from the file
///
/// // Record what is missing from a real server, then replay it with no server:
/// let recording = try ReplayTransport(har: file, mode: .recordWhenMissing(transport: DefaultTransport.shared, to: file))
/// ```
///
/// - Matching: ``ReplayMatcher/methodAndURL`` by default (query item order ignored, fragment
///   ignored), or any ``ReplayMatcher``.
/// - Order: repeated identical requests get the matching entries in file order, each once; after
///   the last one they get the last one again (in ``ReplayMode/replayOnly``) or are recorded anew
///   (in ``ReplayMode/recordWhenMissing(transport:to:redaction:)``).
/// - A request nothing matches fails with ``/NetCore/NetworkError/transport(reason:underlying:)``:
///   `no recorded response for GET https://… in <file>; closest recorded: GET https://…`, both
///   requests redacted.
/// - Responses have the recorded status, headers and body (`content.text`, base64-decoded when
///   `encoding` is `base64`), ``/NetCore/Response/source`` ``/NetCore/ResponseSource/stub``, and metrics built from
///   the recorded `time` and `timings` (started now; the replay does not wait that long). An entry
///   with status 0 (a request that got no response) fails with
///   ``/NetCore/NetworkError/connectionLost(reason:underlying:)``, which retry plugins treat as transient. Entries
///   ``CapturePlugin`` recorded as answered by a cache are skipped: the transport never saw them.
/// - Every plugin hook runs, as with ``/NetCore/StubTransport``: this is an ordinary ``/NetCore/Transport``.
/// - HAR files from NetKit (``CapturePlugin/harData()``) and from browsers' developer tools load
///   alike; unknown fields are ignored, a malformed file fails `init` naming the bad field.
/// - WebSockets: an entry with a 101 and `_webSocketMessages` (as ``CapturePlugin`` and browsers
///   export them) answers `Provider.webSocket` and plays the recorded received messages as the
///   server; the client's n-th message must match the recorded n-th sent one (JSON by value, a
///   recorded `<redacted>` matching any value), later received messages wait for it, and the
///   replay closes with 1000 when played out. Record mode does not record WebSockets.
/// - TLS: replaying never touches the network, so a request with a TLS policy (pins) replays;
///   in record mode the capabilities are those of the real transport, which enforces them.
public struct ReplayTransport: Transport {
    /// How live requests are matched with recordings.
    package let matcher: ReplayMatcher
    /// What happens to requests without an unused recording.
    package let mode: ReplayMode
    /// Replay-only: TLS policies (nothing is sent) and progress (reported once, complete).
    /// Recording: the real transport's capabilities.
    public let capabilities: TransportCapabilities

    let source: String
    let ledger: ReplayLedger
    let recorder: HARRecorder?

    /// Loads the HAR file at `har`.
    /// - Parameters:
    ///   - har: The HAR 1.2 file. In ``ReplayMode/recordWhenMissing(transport:to:redaction:)``
    ///     it may not exist yet (nothing is recorded then).
    ///   - matching: How requests are matched with entries. Default: ``ReplayMatcher/methodAndURL``.
    ///   - mode: Replay only (default), or record what is missing.
    /// - Throws: ``/NetCore/NetworkError/fileSystem(reason:underlying:)`` when the file cannot be read;
    ///   ``/NetCore/NetworkError/decodingFailed(type:keyPath:reason:bodyExcerpt:response:underlying:)`` naming the field when it
    ///   is not a HAR 1.x document.
    public init(har: URL, matching: ReplayMatcher = .methodAndURL, mode: ReplayMode = .replayOnly) throws(NetworkError) {
        let data: Data
        if case .recordWhenMissing = mode, !FileManager.default.fileExists(atPath: har.path) {
            data = Data(#"{"log":{"version":"1.2","entries":[]}}"#.utf8)
        } else {
            do {
                data = try Data(contentsOf: har)
            } catch {
                throw .fileSystem(reason: "could not read the HAR file \(har.path): \(error.localizedDescription)", underlying: error)
            }
        }
        try self.init(harData: data, name: har.path, matching: matching, mode: mode)
    }

    /// Loads a HAR document from memory (for tests and bundled fixtures).
    /// - Parameters:
    ///   - harData: The HAR 1.2 document (JSON).
    ///   - name: How error messages name the document. Default: `"HAR data"`.
    ///   - matching: How requests are matched with entries. Default: ``ReplayMatcher/methodAndURL``.
    ///   - mode: Replay only (default), or record what is missing.
    /// - Throws: ``/NetCore/NetworkError/decodingFailed(type:keyPath:reason:bodyExcerpt:response:underlying:)`` naming the field
    ///   when `harData` is not a HAR 1.x document.
    public init(
        harData: Data, name: String = "HAR data", matching: ReplayMatcher = .methodAndURL,
        mode: ReplayMode = .replayOnly
    ) throws(NetworkError) {
        ledger = ReplayLedger(try HARReader.exchanges(from: harData, name: name))
        source = name
        matcher = matching
        self.mode = mode
        switch mode {
        case .replayOnly:
            recorder = nil
            capabilities = [.tlsPolicy, .progress, .proxy]
        case .recordWhenMissing(let transport, let file, let redaction):
            recorder = HARRecorder(file: file, redaction: redaction)
            // Without .cookieJar, the provider applies a request's jar to every answer, the
            // recorded ones included (the recording transport then finds its cookies already set).
            capabilities = transport.capabilities.subtracting(.cookieJar)
        }
    }

    /// Every recorded exchange, in file order (in record mode, with those recorded since).
    package var recordedExchanges: [RecordedExchange] { ledger.exchanges }

    /// Recorded exchanges that have not answered a request yet: a test can check that its
    /// scenario used the whole recording.
    package var unusedExchanges: [RecordedExchange] { ledger.unused }

    /// Answers from the recording, or (in record mode) from the real transport.
    public func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        if Task.isCancelled { throw NetworkError.cancelled }
        let isRecording = recorder != nil
        if let exchange = ledger.take(for: request, matcher: matcher, repeatingLast: !isRecording) {
            return try ReplayResponse.make(from: exchange, for: request, source: source, progress: progress)
        }
        guard case .recordWhenMissing(let transport, _, _) = mode, let recorder else {
            throw ReplayMiss.error(for: request, in: source, among: ledger.exchanges)
        }
        let started = Date()
        let clock = ContinuousClock()
        let start = clock.now
        let response = try await transport.send(request, progress: progress)
        ledger.appendUsed(try recorder.append(request, response: response, startDate: started, duration: clock.now - start))
        return response
    }
}
