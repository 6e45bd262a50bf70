import NetWebSocketCore
import NetToolbox
import NetBase
import Foundation

/// Shares one transfer among identical requests in flight at the same moment.
///
/// ```swift
/// let provider = Provider<API>(transport: DeduplicatingTransport(DefaultTransport.shared))
/// ```
///
/// Requests are identical when they have the same safe method (`GET`, `HEAD`, `OPTIONS`), URL,
/// TLS policy, per-hop TLS rules (`redirectTLS`; `TLSPolicyResolver`s made from a bare
/// closure are never equal), proxy (``Request/proxy``), cookie jar (``Request/cookieJar``, the
/// same instance or none), credential headers (`Authorization`, `Cookie`, `Proxy-Authorization`)
/// and the headers listed in `keyHeaders`; other requests (bodies, downloads, unsafe methods) always go
/// through on their own. Every caller gets the response (with its own ``Response/request``).
/// Cancelling one caller ends only that caller's wait; the shared transfer is cancelled when
/// every caller waiting for it has cancelled. Progress goes to the first caller's handler.
/// Streamed calls (`Provider.stream`, `Provider.events`) are never
/// shared: each streams through `base` on its own. Neither are WebSockets
/// (`Provider.webSocket`): each opens its own connection through `base`, when `base` can open them.
public final class DeduplicatingTransport: Transport {
    /// The transport that sends the shared requests.
    package let base: any Transport
    /// Request headers besides the credential headers that must match, any case.
    package let keyHeaders: [String]

    private let flights = Locked<[FlightKey: Flight]>([:])

    /// Creates a transport that deduplicates over `base`.
    /// - Parameters:
    ///   - base: The transport that performs the shared transfers.
    ///   - keyHeaders: Headers whose values must match too. Default: `Accept`,
    ///     `Accept-Language`, `Accept-Encoding`.
    public init(_ base: any Transport, keyHeaders: [String] = ["Accept", "Accept-Language", "Accept-Encoding"]) {
        self.base = base
        self.keyHeaders = keyHeaders
    }

    /// The base transport's capabilities.
    public var capabilities: TransportCapabilities { base.capabilities }

    /// How many callers wait for a shared transfer now (tests wait for a caller to join).
    package var waitingCallers: Int {
        flights.withLock { $0.values.reduce(0) { $0 + $1.joinedCount } }
    }

    /// Sends `request`, or joins an identical one already in flight.
    public func send(_ request: Request, progress: ProgressHandler?) async throws -> Response {
        guard let key = FlightKey(request, keyHeaders: keyHeaders) else {
            return try await base.send(request, progress: progress)
        }
        let (flight, waiter) = flights.withLock { flights -> (Flight, Flight.Waiter) in
            if let flight = flights[key], let waiter = flight.join() { return (flight, waiter) }
            let flight = Flight()
            flights[key] = flight
            return (flight, flight.join()!)
        }
        // The shared transfer runs in a task of its own (see `Flight.startIfNeeded`): one caller's
        // cancellation ends only that caller's wait.
        flight.startIfNeeded { [base, flights, request] in
            defer { flights.withLock { if $0[key] === flight { $0[key] = nil } } }
            return try await base.send(request, progress: progress)
        }
        var response = try await flight.wait(as: waiter)
        response.request = request
        return response
    }
}

extension DeduplicatingTransport: StreamingTransport {
    /// Streams through the base transport, never shared: each reader gets its own body as it
    /// arrives (a base that cannot stream answers whole).
    package func stream(_ request: Request, into body: ResponseBodySink) async throws -> Response {
        try await base.streamResponse(request, into: body)
    }

    /// The base transport's: a custom base leaves limits and downloads to the pipeline.
    package var enforcesLimitsAndDownloads: Bool { CustomTransportResponse.isEnforced(by: base) }
}

extension DeduplicatingTransport: WebSocketTransport {
    /// Opens through `base`, never shared: a WebSocket is one caller's connection. A `base` that
    /// cannot open WebSockets fails with the error naming it (not this wrapper).
    package func openWebSocket(
        _ request: Request, handshake: WebSocketHandshake, configuration: WebSocketConfiguration
    ) async throws -> WebSocketOpening {
        try await Pipeline.webSocketTransport(base).openWebSocket(request, handshake: handshake, configuration: configuration)
    }
}

/// What makes two requests the same for ``DeduplicatingTransport``.
struct FlightKey: Hashable, Sendable {
    let method: String
    let url: URL
    let tls: TLSPolicy?
    let proxy: ProxyConfiguration?
    /// Redirect hops must get the same TLS policies; see ``hasSameRedirectRules(_:)``.
    let redirectTLS: TLSPolicyResolver?
    /// Requests with different jars would send different cookies.
    let cookieJar: ObjectIdentifier?
    let headers: [String]

    init?(_ request: Request, keyHeaders: [String]) {
        let method = request.method.rawValue.uppercased()
        guard ["GET", "HEAD", "OPTIONS"].contains(method), request.download == nil else { return nil }
        if case .none = request.body {} else { return nil }
        self.method = method
        self.url = request.url
        self.tls = request.tls
        // A request through a proxy and one sent directly may get different answers.
        self.proxy = request.proxy
        self.redirectTLS = request.redirectTLS
        self.cookieJar = request.cookieJar.map(ObjectIdentifier.init)
        let names = ["Authorization", "Cookie", "Proxy-Authorization"] + keyHeaders
        self.headers = names.map { request.headers[$0] ?? "" }
    }
}

extension FlightKey {
    static func == (lhs: FlightKey, rhs: FlightKey) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.tls == rhs.tls && lhs.proxy == rhs.proxy
            && lhs.cookieJar == rhs.cookieJar && lhs.headers == rhs.headers && lhs.hasSameRedirectRules(rhs)
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(tls)
        hasher.combine(proxy)
        hasher.combine(cookieJar)
        hasher.combine(headers)
    }

    /// Either request has no per-hop TLS resolver, or both have resolvers with equal declared
    /// rules. A resolver made from a bare closure cannot be compared, so its requests are never
    /// shared with another: the redirect hops could be checked under other pins.
    private func hasSameRedirectRules(_ other: FlightKey) -> Bool {
        switch (redirectTLS, other.redirectTLS) {
        case (nil, nil): true
        case (let mine?, let theirs?): mine.hasSameRules(as: theirs)
        default: false
        }
    }
}

/// One shared transfer and the callers waiting for it.
final class Flight: Sendable {
    typealias Waiter = OnceValue<Result<Response, any Error>>.Ticket

    private struct State {
        var task: Task<Void, Never>?
        var joined = 0
        var abandoned = false
    }

    // Lock order: `state`, then `outcome`'s own lock (never the other way).
    private let state = Locked(State())
    private let outcome = OnceValue<Result<Response, any Error>>()

    /// Registers a caller; `nil` when the flight is over or abandoned (start a new one).
    func join() -> Waiter? {
        state.withLock { state in
            guard outcome.current == nil, !state.abandoned else { return nil }
            state.joined += 1
            return outcome.ticket()
        }
    }

    /// How many callers joined and have not left.
    var joinedCount: Int { state.withLock { $0.joined } }

    /// Starts `send` once, whoever calls first.
    func startIfNeeded(_ send: @escaping @Sendable () async throws -> Response) {
        state.withLock { state in
            guard state.task == nil else { return }
            state.task = Task { [outcome] in
                do { outcome.resolve(.success(try await send())) } catch { outcome.resolve(.failure(error)) }
            }
        }
    }

    /// Waits for the shared result; a caller whose task is cancelled stops waiting at once.
    func wait(as waiter: Waiter) async throws -> Response {
        try await withTaskCancellationHandler {
            await outcome.value(waiter)
        } onCancel: {
            self.leave(waiter)
        }.get()
    }

    /// A caller cancelled: it gets `.cancelled`; the last one cancels the transfer.
    private func leave(_ waiter: Waiter) {
        guard outcome.leave(waiter, with: .failure(NetworkError.cancelled)) else { return }
        let task = state.withLock { state -> Task<Void, Never>? in
            state.joined -= 1
            guard state.joined == 0 else { return nil }
            state.abandoned = true
            return state.task
        }
        task?.cancel()
    }
}
