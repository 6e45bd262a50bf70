import NetToolbox
import NetBase
import Foundation

/// Turns a target into a ``Request`` (the "build" step). Fails with a ``NetworkError`` naming the
/// target and the problem; nothing is sent for a request that fails here.
struct RequestBuilder: Sendable {
    let configuration: ProviderConfiguration
    private let generalHeaders: HTTPHeaders
    private let urlMemo = URLMemo()

    init(configuration: ProviderConfiguration) {
        self.configuration = configuration
        self.generalHeaders = HTTPHeaders(configuration.headers)
    }

    func build(_ target: any TargetType, call: CallIdentity, context: RequestContext) throws(NetworkError) -> Request {
        var query = configuration.queryParameters
        var headers = generalHeaders
        var body = RequestBody.none
        var download: DownloadDestination?
        var placement: DownloadPlacement.Destination?
        try encode(content(of: target), for: target, query: &query, headers: &headers, body: &body, download: &download, placement: &placement)
        for (name, value) in target.headers { headers[name] = value }
        let url = try makeURL(for: target, query: query)
        var request = Request(
            method: target.method, url: url, headers: headers, body: body,
            timeout: target.timeout ?? configuration.timeout, download: download,
            context: context, attempt: call.attempt, id: call.id, target: target,
            limits: ResponseLimits(
                maxBodyBytes: target.maxResponseBytes ?? configuration.maxResponseBytes,
                maxDownloadBytes: configuration.maxDownloadBytes,
                maxHeaderBytes: configuration.maxHeaderBytes),
            callStorage: call.storage, attemptStartedAt: call.startedAt
        )
        if let proxy = target.proxy ?? configuration.proxy { request.proxy = proxy }
        if let jar = configuration.cookieJar { request.cookieJar = jar }
        if let placement { request.context[DownloadPlacement.Key.self] = placement }
        return request
    }

    /// The target's content, after the provider's ``ProviderConfiguration/contentTransform``.
    private func content(of target: any TargetType) -> RequestContent {
        guard let transform = configuration.contentTransform else { return target.content }
        let original = type(of: target) == AnyTarget.self ? (target as! AnyTarget).base : target
        return transform(target.content, original)
    }

    /// A request standing in when building failed, so `process` still has something to look at.
    func fallbackRequest(for target: any TargetType, call: CallIdentity, context: RequestContext) -> Request {
        Request(
            method: target.method, url: configuration.baseURL ?? target.baseURL,
            timeout: target.timeout ?? configuration.timeout, context: context, attempt: call.attempt, id: call.id, target: target,
            callStorage: call.storage, attemptStartedAt: call.startedAt)
    }

    /// What every request of one attempt carries from its call.
    struct CallIdentity {
        let id: UUID
        let attempt: Int
        let storage: CallStorage
        let startedAt: ContinuousClock.Instant
    }

    private func makeURL(for target: any TargetType, query: Parameters) throws(NetworkError) -> URL {
        let base = configuration.baseURL ?? target.baseURL
        let prefix = try urlMemo.prefix(base: base.absoluteString, path: target.path) { () throws(NetworkError) in
            try Self.joinPath(target.path, to: base, target: targetDescription(target)).get()
        }
        var text = prefix.text
        var queryItems: [String] = []
        if let baseQuery = prefix.baseQuery { queryItems.append(baseQuery) }
        if !query.isEmpty {
            let encoded = (target.parameterEncoding ?? configuration.parameterEncoding).encode(query)
            if !encoded.isEmpty { queryItems.append(encoded) }
        }
        if !queryItems.isEmpty { text += "?" + queryItems.joined(separator: "&") }
        guard let url = urlMemo.url(for: text) else {
            throw .invalidURL(target: targetDescription(target), reason: "\"\(text)\" is not a valid URL")
        }
        return url
    }

    /// Checks `base` and appends the percent-encoded `path`; the base URL's query is kept aside
    /// (it goes first in the final query) and its fragment dropped.
    private static func joinPath(_ path: String, to base: URL, target name: String) -> Result<URLMemo.Prefix, NetworkError> {
        guard let scheme = base.scheme?.lowercased(), scheme == "http" || scheme == "https", base.host != nil else {
            return .failure(.invalidURL(target: name, reason: "the base URL \"\(base.absoluteString)\" is not an absolute http(s) URL"))
        }
        guard let encodedPath = PercentEncoding.encodePath(path) else {
            return .failure(.invalidURL(target: name, reason: "the path \"\(path)\" contains a \"%\" that does not start a valid %XX escape"))
        }
        var text = base.absoluteString
        var baseQuery: String?
        if let cut = text.utf8.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) {
            if text.utf8[cut] == UInt8(ascii: "?") {
                let afterQuestion = text.utf8.index(after: cut)
                let end = text.utf8[afterQuestion...].firstIndex(of: UInt8(ascii: "#")) ?? text.utf8.endIndex
                if afterQuestion < end { baseQuery = String(text[afterQuestion..<end]) }
            }
            text = String(text[..<cut])
        }
        if !encodedPath.isEmpty {
            if text.hasSuffix("/") { text.removeLast() }
            text += encodedPath.hasPrefix("/") ? encodedPath : "/" + encodedPath
        }
        return .success(URLMemo.Prefix(text: text, baseQuery: baseQuery))
    }

    private func encode(
        _ content: RequestContent, for target: any TargetType, query: inout Parameters,
        headers: inout HTTPHeaders, body: inout RequestBody, download: inout DownloadDestination?,
        placement: inout DownloadPlacement.Destination?
    ) throws(NetworkError) {
        func setContentType(_ value: String) {
            if !headers.contains("Content-Type") { headers["Content-Type"] = value }
        }
        switch content {
        case .plain:
            break
        case .query(let parameters):
            query = query.merging(parameters)
        case .data(let data, let contentType):
            body = .data(data)
            setContentType(contentType)
        case .json(let value):
            do {
                body = .data(try (target.jsonEncoder ?? configuration.jsonEncoder).encode(value))
            } catch {
                throw .encodingFailed(target: targetDescription(target), reason: Self.describe(error), underlying: error)
            }
            setContentType("application/json")
        case .form(let parameters):
            body = .data(Data((target.parameterEncoding ?? configuration.parameterEncoding).encode(parameters).utf8))
            setContentType("application/x-www-form-urlencoded; charset=utf-8")
        case .parameters(let parameters):
            let inQuery = ["GET", "HEAD", "DELETE"].contains(target.method.rawValue.uppercased())
            try encode(
                inQuery ? .query(parameters) : .form(parameters), for: target, query: &query, headers: &headers, body: &body, download: &download,
                placement: &placement)
        case .multipart(let parts):
            let multipart = try MultipartEncoder.encode(parts, target: targetDescription(target))
            body = .multipart(multipart)
            setContentType(multipart.contentType)
        case .file(let url, let contentType):
            try MultipartEncoder.checkReadable(url, target: targetDescription(target))
            body = .file(url)
            setContentType(contentType)
        case .download(let url, let resumable):
            guard url.isFileURL else {
                throw .invalidRequest(target: targetDescription(target), reason: "the download destination \(url) is not a file URL")
            }
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue {
                throw .invalidRequest(target: targetDescription(target), reason: "the download destination \(url.path) is a directory; give a file path")
            }
            download = DownloadDestination(url: url, resumable: resumable)
        case .downloadTo(let destination):
            download = DownloadDestination(url: DownloadPlacement.temporaryFile())
            placement = destination
        case .withQuery(let inner, let parameters):
            try encode(inner, for: target, query: &query, headers: &headers, body: &body, download: &download, placement: &placement)
            query = query.merging(parameters)
        }
    }

    private static func describe(_ error: any Error) -> String {
        if case .invalidValue(let value, let context) = error as? EncodingError {
            let path = context.codingPath.map(\.stringValue).joined(separator: ".")
            return "\(value) cannot be encoded\(path.isEmpty ? "" : " at \(path)"): \(context.debugDescription)"
        }
        return String(describing: error)
    }
}
