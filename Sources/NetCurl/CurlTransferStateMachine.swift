import NetToolbox
import NetBase

/// The life of one curl transfer as libcurl's callbacks reveal it: events in, actions out, no I/O.
///
/// `CurlTransfer` feeds it the status lines, the ends of header blocks, body bytes, pauses and
/// failures in the order libcurl reports them, and does what each answer says (deliver a streamed
/// head, buffer bytes, pause for fairness or for a slow reader, stop the transfer). Interim (1xx)
/// responses and redirect hops each start a new response with their status line. Every event that
/// comes after a failure, or that makes no sense in the current phase, is ignored or refused here,
/// so the transfer holds no flags of its own.
struct CurlTransferStateMachine: Sendable {
    /// Where the transfer is.
    enum Phase: Equatable, Sendable {
        /// No status line yet.
        case awaitingStatus
        /// Inside the header block of a response with this status.
        case readingHeaders(status: Int)
        /// The header block ended; the body (if any) is kept in memory or written to the download.
        case receivingBody(status: Int)
        /// A streamed 2xx head went to the caller; the body goes to the reader's sink.
        case streaming(status: Int, pausedForReader: Bool)
    }

    /// What to do with body bytes that arrived.
    enum BodyAction: Equatable, Sendable {
        /// Keep them (memory or download file) and count them against the limit.
        case keep
        /// Pause the transfer so that other transfers on the loop get a turn; libcurl offers the
        /// same bytes again when the loop resumes it.
        case yieldToOthers
        /// Hand them to the stream's reader.
        case forwardToReader
        /// Pause the transfer until the reader makes room (backpressure).
        case pauseForReader
        /// Refuse them: the transfer failed, or bytes came before the headers ended.
        case refuse
    }

    /// How the finished transfer is reported.
    enum Completion: Sendable {
        /// With the error a callback recorded (it explains libcurl's code), or libcurl's own.
        case failed(recorded: NetworkError?)
        /// The connection closed before the header block ended.
        case headersIncomplete
        /// A whole response.
        case succeeded
    }

    /// How many body bytes one transfer takes before letting the others through.
    let yieldEvery: Int
    private(set) var phase: Phase = .awaitingStatus
    /// The first failure a callback recorded; it ends the transfer and explains libcurl's code.
    private(set) var failure: NetworkError?
    /// Paused after a share of body bytes (``BodyAction/yieldToOthers``) until the loop resumes it.
    private(set) var hasYielded = false
    /// libcurl is handing over the bytes it held while the transfer yielded (inside
    /// `curl_easy_pause`): they are taken whole. Yielding again in the middle would make libcurl
    /// copy the rest into a new buffer each time, quadratic in a decoded body's backlog (one 16 KiB
    /// read of a gzip bomb inflates to megabytes).
    private(set) var isTakingHeldBytes = false
    private var bytesSinceYield = 0

    init(yieldEvery: Int) {
        self.yieldEvery = yieldEvery
    }

    /// The status of the response being received (0 before the first status line).
    var statusCode: Int {
        switch phase {
        case .awaitingStatus: 0
        case .readingHeaders(let status), .receivingBody(let status), .streaming(let status, _): status
        }
    }

    /// Whether the current response's header block ended.
    var headersComplete: Bool {
        switch phase {
        case .awaitingStatus, .readingHeaders: false
        case .receivingBody, .streaming: true
        }
    }

    /// Whether a streamed head went to the caller (the end then goes to the sink).
    var headDelivered: Bool {
        if case .streaming = phase { return true }
        return false
    }

    /// Whether the stream waits for its reader to make room.
    var isPausedForReader: Bool {
        if case .streaming(_, pausedForReader: true) = phase { return true }
        return false
    }

    /// A status line: a new response starts (after an interim one or a redirect hop).
    /// - Returns: `false` when the transfer has failed or already streams (the line is ignored).
    mutating func statusLine(_ status: Int) -> Bool {
        guard failure == nil, !headDelivered else { return false }
        phase = .readingHeaders(status: status)
        return true
    }

    /// The blank line that ends a header block.
    /// - Parameter streamsSuccess: Whether a 2xx head goes to a stream's reader now.
    /// - Returns: `true` when the caller must deliver the head now.
    mutating func headersEnded(streamsSuccess: Bool) -> Bool {
        guard failure == nil, case .readingHeaders(let status) = phase else { return false }
        if streamsSuccess, StatusRules.isSuccess(status) {
            phase = .streaming(status: status, pausedForReader: false)
            return true
        }
        phase = .receivingBody(status: status)
        return false
    }

    /// `count` body bytes arrived; `readerHasRoom` matters for a stream only.
    mutating func bodyArrived(_ count: Int, readerHasRoom: Bool) -> BodyAction {
        guard failure == nil else { return .refuse }
        switch phase {
        case .awaitingStatus, .readingHeaders:
            return .refuse
        case .streaming(let status, _):
            guard readerHasRoom else {
                phase = .streaming(status: status, pausedForReader: true)
                return .pauseForReader
            }
            return .forwardToReader
        case .receivingBody:
            guard isTakingHeldBytes || bytesSinceYield < yieldEvery else {
                hasYielded = true
                return .yieldToOthers
            }
            bytesSinceYield += count
            return .keep
        }
    }

    /// The loop resumes a transfer that yielded; it starts a new share, which begins with the
    /// bytes libcurl held (taken whole, until ``tookHeldBytes()``).
    mutating func resumedAfterYield() {
        hasYielded = false
        bytesSinceYield = 0
        isTakingHeldBytes = true
    }

    /// libcurl handed over what it held; the share counts them, and yields once it is used up.
    mutating func tookHeldBytes() {
        isTakingHeldBytes = false
    }

    /// The reader made room and the loop unpauses the stream.
    mutating func readerMadeRoom() {
        if case .streaming(let status, true) = phase { phase = .streaming(status: status, pausedForReader: false) }
    }

    /// A callback found a reason to stop (limit, framing, disk, deadline, cancellation). The first
    /// reason is kept; later ones are ignored.
    mutating func fail(_ error: NetworkError) {
        if failure == nil { failure = error }
    }

    /// libcurl reported the transfer done; `succeeded` is whether its code was `CURLE_OK`.
    func completion(libcurlSucceeded succeeded: Bool) -> Completion {
        guard succeeded, failure == nil else { return .failed(recorded: failure) }
        return headersComplete ? .succeeded : .headersIncomplete
    }
}
