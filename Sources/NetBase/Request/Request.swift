import NetRedaction
import Foundation

/// A fully built HTTP request, as plugins and transports see it.
///
/// Platform-neutral (not a `URLRequest`): each transport translates it. Plugins may change any
/// `var` in ``Plugin/prepare(_:)``.
public struct Request: Sendable, CustomStringConvertible {
    /// The fields a call rarely changes once the request is built, in one shared immutable box:
    /// a copy of a request (and every async frame of the pipeline holds several) is then a
    /// retain and a few words, not hundreds of bytes. A change makes a new box: the fields are
    /// taken out and the old box let go first (`nil` only for that moment), so a request no copy
    /// shares changes its fields in place.
    private var shared: SharedFields<RequestFields>
    /// The whole-request deadline, measured from the moment the transport starts sending.
    public var timeout: Duration
    /// Which attempt this is, starting at 1.
    public internal(set) var attempt: Int
    /// When this attempt began (before `prepare`).
    package var attemptStartedAt: ContinuousClock.Instant

    /// The HTTP method.
    public var method: HTTPMethod {
        get { shared.fields.method }
        _modify { yield &shared.fields.method }
    }
    /// The full URL, query included.
    public var url: URL {
        get { shared.fields.url }
        _modify { yield &shared.fields.url }
    }
    /// The header fields (case-insensitive names).
    public var headers: HTTPHeaders {
        get { shared.fields.headers }
        _modify { yield &shared.fields.headers }
    }
    /// The body.
    public var body: RequestBody {
        get { shared.fields.body }
        _modify { yield &shared.fields.body }
    }
    /// Where a download is written, or `nil` for responses kept in memory.
    package var download: DownloadDestination? {
        get { shared.fields.download }
        _modify { yield &shared.fields.download }
    }
    /// TLS requirements (pins, extra trusted certificates). A transport that cannot enforce them
    /// fails the request instead of sending it.
    public var tls: TLSPolicy? {
        get { shared.fields.tls }
        _modify { yield &shared.fields.tls }
    }
    /// How large the response may be; transports stop reading past these limits.
    package var limits: ResponseLimits {
        get { shared.fields.limits }
        _modify { yield &shared.fields.limits }
    }
    /// Chooses the TLS policy for the origins redirects lead to. A redirect to another origin
    /// never inherits ``tls``: it gets `redirectTLS?.policy(for:)` for its own URL, or none.
    package var redirectTLS: TLSPolicyResolver? {
        get { shared.fields.redirectTLS }
        _modify { yield &shared.fields.redirectTLS }
    }
    /// Values plugins pass along; kept across retries of the same call.
    public var context: RequestContext {
        get { shared.fields.context }
        _modify { yield &shared.fields.context }
    }
    /// State the hooks of this call share across hooks and attempts (see ``CallStorage``).
    public package(set) var callStorage: CallStorage {
        get { shared.fields.callStorage }
        _modify { yield &shared.fields.callStorage }
    }
    /// Identifies the call; the same for every attempt.
    public var id: UUID { shared.fields.id }
    /// The target this request was built from.
    public var target: any TargetType { shared.fields.target }

    /// Creates a request. ``Provider`` builds requests for you; this is for transports and tests.
    public init(
        method: HTTPMethod = .get, url: URL, headers: HTTPHeaders = [:], body: RequestBody = .none,
        timeout: Duration = .seconds(60), tls: TLSPolicy? = nil,
        context: RequestContext = RequestContext(), attempt: Int = 1, id: UUID = RequestIdentifier.next(), target: any TargetType
    ) {
        self.init(
            method: method, url: url, headers: headers, body: body, timeout: timeout, tls: tls,
            context: context, attempt: attempt, id: id, target: target,
            callStorage: CallStorage(), attemptStartedAt: .now)
    }

    /// Creates a request of a running call: the pipeline passes the call's storage and the
    /// attempt's start, so no placeholder store is made only to be replaced.
    package init(
        method: HTTPMethod, url: URL, headers: HTTPHeaders = [:], body: RequestBody = .none, timeout: Duration,
        download: DownloadDestination? = nil, tls: TLSPolicy? = nil, context: RequestContext, attempt: Int, id: UUID,
        target: any TargetType, limits: ResponseLimits = ResponseLimits(), redirectTLS: TLSPolicyResolver? = nil,
        callStorage: CallStorage, attemptStartedAt: ContinuousClock.Instant
    ) {
        shared = SharedFields(
            RequestFields(
                method: method, url: url, headers: headers, body: body, download: download, tls: tls, limits: limits,
                redirectTLS: redirectTLS, context: context, callStorage: callStorage, id: id, target: target))
        self.timeout = timeout
        self.attempt = attempt
        self.attemptStartedAt = attemptStartedAt
    }

    /// Whether `other` keeps its fields in this request's box (one is an unchanged copy of the
    /// other's fields), so holding both costs no more memory than holding one.
    package func sharesFields(with other: Request) -> Bool {
        shared.isSame(as: other.shared)
    }

    /// The URL's host, or an empty string.
    package var host: String { url.host ?? "" }

    /// `GET https://example.com/path`, with userinfo and secret query values redacted.
    public var description: String { SecretRedactor.describe(self) }
}

/// Picks the ``TLSPolicy`` for a URL; used for every hop of a redirect chain.
///
/// ```swift
/// request.redirectTLS = TLSPolicyResolver { url in url.host == "api.example.com" ? policy : nil }
/// ```
package struct TLSPolicyResolver: Sendable {
    private let resolve: @Sendable (URL) -> TLSPolicy?
    /// What the rules are, when the creator can say (two resolvers with equal rules choose the
    /// same policy for every URL); `nil` for an arbitrary closure.
    private let rules: (any Hashable & Sendable)?

    /// Creates a resolver from a function of the URL.
    package init(_ resolve: @escaping @Sendable (URL) -> TLSPolicy?) {
        self.resolve = resolve
        self.rules = nil
    }

    /// Creates a resolver whose choices are fully described by `rules` (for example the pins it
    /// applies): resolvers with equal rules count as the same, so ``DeduplicatingTransport`` may
    /// share a transfer between their requests.
    package init(rules: some Hashable & Sendable, _ resolve: @escaping @Sendable (URL) -> TLSPolicy?) {
        self.resolve = resolve
        self.rules = rules
    }

    /// The policy for `url`, or `nil` for none.
    package func policy(for url: URL) -> TLSPolicy? { resolve(url) }

    /// Whether both resolvers declared equal rules (a resolver made from a bare closure is the
    /// same as no other, not even itself).
    package func hasSameRules(as other: TLSPolicyResolver) -> Bool {
        guard let rules, let otherRules = other.rules else { return false }
        return AnyHashable(rules) == AnyHashable(otherRules)
    }
}

/// ``Request``'s rarely changed fields, kept in one ``SharedFields`` box.
private struct RequestFields: Sendable {
    var method: HTTPMethod
    var url: URL
    var headers: HTTPHeaders
    var body: RequestBody
    var download: DownloadDestination?
    var tls: TLSPolicy?
    var limits: ResponseLimits
    var redirectTLS: TLSPolicyResolver?
    var context: RequestContext
    var callStorage: CallStorage
    let id: UUID
    let target: any TargetType
}
