import NetRedaction
import NetToolbox
import Foundation

/// An HTTP response with the request that produced it.
public struct Response: Sendable, CustomStringConvertible {
    /// Every field, in one shared immutable box: a response travels through many async frames
    /// of a call (each a task allocation), and a copy is then one retain. A change makes a new
    /// box: the fields are taken out and the old box let go first (`nil` only for that moment),
    /// so a response no copy shares changes its fields in place (`data.append` stays linear).
    private var shared: SharedFields<ResponseFields>
    /// Always `nil`: an existential field keeps `Response`, and with it `NetworkError`, an
    /// address-only type. With both loadable, Swift 6.3.1's SIL generator breaks some typed
    /// `catch .unacceptableStatus(let refused)` clauses (the ownership verifier aborts the compiler
    /// on `NetKitTransport.send`, built with the OpenAPI trait; the same cause as the reverted
    /// layouts `CatchPatternTests` describes: they made `NetworkError` loadable too).
    private var addressOnlyMarker: (any Sendable)? = nil

    /// The HTTP status code.
    public var statusCode: Int {
        get { shared.fields.statusCode }
        _modify { yield &shared.fields.statusCode }
    }
    /// The header fields (case-insensitive names).
    public var headers: HTTPHeaders {
        get { shared.fields.headers }
        _modify { yield &shared.fields.headers }
    }
    /// The body. Empty for downloads to disk (see ``fileURL``).
    public var data: Data {
        get { shared.fields.data }
        _modify { yield &shared.fields.data }
    }
    /// Where a download was written.
    public var fileURL: URL? {
        get { shared.fields.fileURL }
        _modify { yield &shared.fields.fileURL }
    }
    /// The request as it was sent (after every plugin's `prepare`).
    public var request: Request {
        get { shared.fields.request }
        _modify { yield &shared.fields.request }
    }
    /// Where the response came from.
    public var source: ResponseSource {
        get { shared.fields.source }
        _modify { yield &shared.fields.source }
    }
    /// Details when the response came from a cache.
    public var cacheInfo: CacheInfo? {
        get { shared.fields.cacheInfo }
        _modify { yield &shared.fields.cacheInfo }
    }
    /// Timings and sizes, when the transport measured them.
    public var metrics: ResponseMetrics? {
        get { shared.fields.metrics }
        _modify { yield &shared.fields.metrics }
    }

    /// Creates a response, for stubs, plugins answering in `prepare`, and transports.
    public init(
        statusCode: Int, headers: HTTPHeaders = [:], data: Data = Data(), request: Request,
        fileURL: URL? = nil, source: ResponseSource = .network, metrics: ResponseMetrics? = nil
    ) {
        shared = SharedFields(
            ResponseFields(
                statusCode: statusCode, headers: headers, data: data, fileURL: fileURL, request: request, source: source,
                cacheInfo: nil, metrics: metrics))
    }

    /// The body as text (UTF-8 by default); `nil` when it is not valid in that encoding.
    public func string(encoding: String.Encoding = .utf8) -> String? {
        String(data: data, encoding: encoding)
    }

    /// The body parsed with `JSONSerialization` (fragments allowed).
    public func json() throws(NetworkError) -> Any {
        do {
            return try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw .decodingFailed(
                type: "JSON", keyPath: nil, reason: error.localizedDescription,
                bodyExcerpt: redactedExcerpt(), response: self, underlying: error)
        }
    }

    /// Decodes the body, or the value at a dot-separated `keyPath` such as `"data.user"`.
    ///
    /// - Throws: ``NetworkError/decodingFailed(type:keyPath:reason:bodyExcerpt:response:underlying:)``
    ///   naming the type, the key path and the start of the body, with this response and the
    ///   `DecodingError` (or `JSONSerialization`'s error) it came from.
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - keyPath: A dot-separated path to the value to decode, or `nil` for the whole body.
    ///   - decoder: The decoder. Default: a plain `JSONDecoder`.
    ///   - failsOnEmptyData: With `false`, an empty body is decoded as Moya's parameter of the
    ///     same name decodes it: from `{}`, then from `[{}]` (so a type whose properties are all
    ///     optional, or an array of it, still decodes); an optional type gets `nil` first. The key
    ///     path is not looked up in an empty body. A type none of these fit still throws.
    public func decode<T: Decodable>(
        _ type: T.Type = T.self, atKeyPath keyPath: String? = nil, using decoder: JSONDecoder = JSONDecoder(),
        failsOnEmptyData: Bool = true
    ) throws(NetworkError) -> T {
        // The type's name is only needed for an error; describing a type costs about a microsecond.
        var typeName: String { String(describing: T.self) }
        if !failsOnEmptyData, data.isEmpty { return try decodeEmptyBody(T.self, keyPath: keyPath, using: decoder) }
        do {
            guard let keyPath, !keyPath.isEmpty else { return try decoder.decode(T.self, from: data) }
            let root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            let node: Any
            switch JSONKeyPath(keyPath).lookup(in: root) {
            case .found(let value):
                node = value
            case .missing(let key):
                throw NetworkError.decodingFailed(
                    type: typeName, keyPath: keyPath, reason: "no value for key \"\(key)\"", bodyExcerpt: redactedExcerpt(),
                    response: self)
            }
            let subtree = try JSONSerialization.data(withJSONObject: node, options: [.fragmentsAllowed])
            return try decoder.decode(T.self, from: subtree)
        } catch let error as NetworkError {
            throw error
        } catch {
            throw .decodingFailed(
                type: typeName, keyPath: keyPath, reason: Self.describe(error, under: keyPath), bodyExcerpt: redactedExcerpt(),
                response: self, underlying: error)
        }
    }

    /// The start of the body for error messages, with secrets redacted (see the README's
    /// security model); `(empty body)` when there is none.
    func redactedExcerpt() -> String {
        guard !data.isEmpty else { return "(empty body)" }
        let excerpt = SecretRedactor.excerpt(
            of: data, contentType: headers["Content-Type"],
            secrets: KnownSecrets(request: request, responseHeaders: headers))
        return excerpt.trimmingCharacters(in: .newlines)
    }

    /// What went wrong, with the coding path spelled from the body's top (`keyPath` first).
    private static func describe(_ error: any Error, under keyPath: String?) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let components = (keyPath.map { [$0] } ?? []) + context.codingPath.map(\.stringValue)
            return components.isEmpty ? "the top level" : components.joined(separator: ".")
        }
        func detail(_ context: DecodingError.Context) -> String {
            var text = context.debugDescription
            while text.hasSuffix(".") { text.removeLast() }
            return text
        }
        return switch error as? DecodingError {
        case .keyNotFound(let key, let context)?:
            "missing key \"\(key.stringValue)\" at \(path(context))"
        case .typeMismatch(let type, let context)?:
            "expected \(type) at \(path(context)): \(detail(context))"
        case .valueNotFound(let type, let context)?:
            "null where \(type) was expected at \(path(context))"
        case .dataCorrupted(let context)?:
            "invalid data at \(path(context)): \(detail(context))"
        default:
            String(describing: error)
        }
    }
}

/// Where a ``Response`` came from.
public enum ResponseSource: String, Sendable, Hashable, CustomStringConvertible {
    /// From the transport.
    case network
    /// From a cache (see ``Response/cacheInfo``).
    case cache
    /// From ``StubTransport``.
    case stub

    public var description: String { rawValue }
}

extension Response {
    /// Writes a 2xx body to `destination` as a real download would (for transports that hold the
    /// body in memory: stubs, replay); the body then lives in ``fileURL``.
    package mutating func storeDownload(at destination: DownloadDestination) throws(NetworkError) {
        guard StatusRules.isSuccess(statusCode) else { return }
        do {
            try DownloadFiles.place(data, at: destination.url)
        } catch {
            throw .fileSystem(reason: "could not write \(destination.url.path): \(error)", underlying: error)
        }
        fileURL = destination.url
        data = Data()
    }
}

/// ``Response``'s fields, kept in one ``SharedFields`` box.
private struct ResponseFields: Sendable {
    var statusCode: Int
    var headers: HTTPHeaders
    var data: Data
    var fileURL: URL?
    var request: Request
    var source: ResponseSource
    var cacheInfo: CacheInfo?
    var metrics: ResponseMetrics?
}
