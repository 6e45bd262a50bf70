import NetRedaction
import NetToolbox
import Foundation
import NetCore

/// Logs every attempt of every request: one line when it is sent and one when it ends.
///
/// ```swift
/// let provider = Provider<API>(plugins: [LoggerPlugin()])
/// // → GET https://api.example.com/users?token=%3Credacted%3E attempt=1
/// // ← 200 GET https://api.example.com/users?token=%3Credacted%3E 12.3 ms 1.2 KB attempt=1 source=network
///
/// let verbose = LoggerPlugin(verbosity: .verbose, bodyLimit: 2048, includesCurlCommand: true,
///                            redaction: .default.adding(headers: ["X-Api-Key"]),
///                            output: { line in myLogger.debug("\(line)") })
///
/// let custom = LoggerPlugin(formatter: .init(request: { "→ \($0.method.rawValue) \($0.url.path)" }))
/// ```
///
/// Values of `Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie`, of the default
/// secret query items and body fields (see ``Redaction``) and of configured names are written as
/// `<redacted>`, everywhere: URLs (whose userinfo is dropped), headers, JSON, form and multipart
/// bodies, error messages and the cURL command. Other bodies have the request's secret values
/// replaced wherever they reappear. A custom ``Formatter`` is redacted too: it reads redacted
/// copies, and its output is scrubbed again.
///
/// The compact mode (default) builds one string per line and never parses bodies. Outcomes that
/// never reach the transport (a cache answer in `prepare`, a stop, a build error) and results a
/// plugin replaced are logged once from `process`.
///
/// A WebSocket's handshake is logged like a request; then a line when the connection opens, one
/// when it ends (code, duration, messages and bytes each way) and, in verbose mode, one per
/// message (`⇢` sent, `⇠` received) with its kind, size and a preview redacted like a body.
public struct LoggerPlugin: Plugin {
    /// How much a line shows.
    public enum Verbosity: Sendable, Hashable {
        /// One line per request and per response: method, URL, status, duration, bytes, attempt, source.
        case compact
        /// The compact line followed by headers and bodies (truncated, JSON pretty-printed,
        /// binary bodies summarised).
        case verbose
    }

    /// How much each entry shows.
    package let verbosity: Verbosity
    /// The most characters of a body shown in verbose mode.
    package let bodyLimit: Int
    /// Whether a `curl` command that reproduces the request (redacted) follows each request line.
    package let includesCurlCommand: Bool
    /// What is hidden.
    package let redaction: Redaction
    /// Writes the request and outcome lines.
    package let formatter: Formatter
    let output: @Sendable (String) -> Void

    /// Creates a logger.
    /// - Parameters:
    ///   - verbosity: ``Verbosity/compact`` (default) or ``Verbosity/verbose``.
    ///   - bodyLimit: In verbose mode, bodies longer than this many characters are cut. Default 4096.
    ///   - includesCurlCommand: Adds a redacted `curl` command after each request line. Default off.
    ///   - redaction: Header, query and field names whose values are hidden. Default: ``Redaction/default``.
    ///   - formatter: Writes the request and outcome lines. Default: ``Formatter/default``, the
    ///     built-in lines.
    ///   - output: Receives each entry (one line in compact mode, several in verbose mode).
    ///     Called concurrently from any task. Default: standard output.
    public init(
        verbosity: Verbosity = .compact, bodyLimit: Int = 4096, includesCurlCommand: Bool = false,
        redaction: Redaction = .default, formatter: Formatter = .default,
        output: @escaping @Sendable (String) -> Void = { print($0) }
    ) {
        self.verbosity = verbosity
        self.bodyLimit = bodyLimit
        self.includesCurlCommand = includesCurlCommand
        self.redaction = redaction
        self.formatter = formatter
        self.output = output
    }

    public func willSend(_ request: Request) async -> SendAction {
        if let format = formatter.request {
            output(formattedEntry(for: request, format: format))
            return .proceed
        }
        var line = LineBuilder()
        line.append("→ " as StaticString)
        line.append(request.method.rawValue)
        line.append(" " as StaticString)
        line.append(redaction.redact(request.url))
        line.append(" attempt=" as StaticString)
        line.append(request.attempt)
        var entry = line.string
        if verbosity == .verbose || includesCurlCommand {
            let secrets = redaction.knownSecrets(in: request, responseHeaders: nil)
            if verbosity == .verbose { entry += details(of: request, secrets: secrets) }
            if includesCurlCommand { entry += "\n" + curlCommand(for: request, secrets: secrets) }
        }
        output(entry)
        return .proceed
    }

    /// Logs how each attempt ended (an observer: it never changes the result).
    public func didReceive(_ result: Result<Response, NetworkError>, for request: Request) async {
        if let format = formatter.response {
            output(formattedEntry(for: result, request: request, format: format))
            return
        }
        switch result {
        case .success(let response): output(entry(for: response, request: request))
        case .failure(let error): output(entry(for: error, request: request))
        }
    }

    // MARK: Entries

    private func entry(for response: Response, request: Request) -> String {
        let duration = response.metrics?.duration ?? elapsed(request)
        let bytes = response.metrics?.bytesReceived ?? Int64(response.data.count)
        var builder = LineBuilder()
        builder.append("← " as StaticString)
        builder.append(response.statusCode)
        builder.append(" " as StaticString)
        builder.append(request.method.rawValue)
        builder.append(" " as StaticString)
        builder.append(redaction.redact(request.url))
        if let duration {
            builder.append(" " as StaticString)
            builder.append(.milliseconds(duration))
        }
        builder.append(" " as StaticString)
        builder.append(.bytes(bytes))
        builder.append(" attempt=" as StaticString)
        builder.append(request.attempt)
        builder.append(" source=" as StaticString)
        builder.append(response.source.rawValue)
        var line = builder.string
        if verbosity == .verbose {
            line += details(of: response, secrets: redaction.knownSecrets(in: request, responseHeaders: response.headers))
        }
        return line
    }

    private func entry(for error: NetworkError, request: Request) -> String {
        if case .unacceptableStatus(let response) = error {
            return entry(for: response, request: request) + " (status not accepted)"
        }
        var line = "← ERROR \(request.method.rawValue) \(redaction.redact(request.url))"
        if let duration = elapsed(request) { line += " " + UnitText.milliseconds(duration).text }
        let secrets = redaction.knownSecrets(in: request, responseHeaders: error.response?.headers)
        line +=
            " attempt=\(request.attempt): "
            + SecretRedactor.redact(text: error.description, url: request.url, secrets: secrets, rules: redaction.rules)
        if verbosity == .verbose, let response = error.response {
            line += details(of: response, secrets: secrets)
        }
        return line
    }

    /// The request entry with a custom line: the formatter reads a redacted copy, and its line is
    /// scrubbed again before the verbose details and the cURL command are added.
    private func formattedEntry(for request: Request, format: @Sendable (Request) -> String) -> String {
        let secrets = redaction.knownSecrets(in: request, responseHeaders: nil)
        let view = RedactedView(redaction: redaction, secrets: secrets)
        var entry = view.scrub(format(view.request(request)), url: request.url)
        if verbosity == .verbose { entry += details(of: request, secrets: secrets) }
        if includesCurlCommand { entry += "\n" + curlCommand(for: request, secrets: secrets) }
        return entry
    }

    /// The outcome entry with a custom line, redacted like ``formattedEntry(for:format:)``.
    private func formattedEntry(
        for result: Result<Response, NetworkError>, request: Request, format: @Sendable (Result<Response, NetworkError>, Request) -> String
    ) -> String {
        let response: Response? =
            switch result {
            case .success(let response): response
            case .failure(let error): error.response
            }
        let secrets = redaction.knownSecrets(in: request, responseHeaders: response?.headers)
        let view = RedactedView(redaction: redaction, secrets: secrets)
        var entry = view.scrub(format(view.result(result), view.request(request)), url: request.url)
        if verbosity == .verbose, let response { entry += details(of: response, secrets: secrets) }
        return entry
    }

    private func elapsed(_ request: Request) -> Duration? {
        .now - request.attemptStartedAt
    }

    /// The cURL command for `request` with every output redacted the same way: headers, URL, and
    /// the body by structure and by known secrets (the command gets the redacted bytes).
    private func curlCommand(for request: Request, secrets: KnownSecrets) -> String {
        var shown = request
        shown.headers = HTTPHeaders(fields: headerFields(request.headers, secrets: secrets).map { ($0.name, $0.value) })
        if let body = request.body.inMemoryData, !body.isEmpty {
            let contentType = SecretRedactor.contentType(of: request)
            shown.body = .data(BodyText.redactedBytes(body, contentType: contentType, redaction: redaction, secrets: secrets))
        }
        return CurlCommandLine.make(for: shown, redaction: redaction, secrets: secrets.values)
    }

    private func details(of request: Request, secrets: KnownSecrets) -> String {
        var text = headerLines(headerFields(request.headers, secrets: secrets))
        switch request.body {
        case .none: break
        case .file(let url): text += "\n  body: <file \(url.path), \(UnitText.bytes(request.body.contentLength ?? 0).text)>"
        case .data, .multipart:
            if let data = request.body.inMemoryData {
                text += "\n  body: " + bodyText(data, contentType: SecretRedactor.contentType(of: request), secrets: secrets)
            } else {
                text += "\n  body: <multipart, \(UnitText.bytes(request.body.contentLength ?? 0).text)>"
            }
        }
        return text
    }

    private func details(of response: Response, secrets: KnownSecrets) -> String {
        var text = headerLines(headerFields(response.headers, secrets: secrets))
        if let file = response.fileURL {
            text += "\n  body: <file \(file.path)>"
        } else if !response.data.isEmpty {
            text += "\n  body: " + bodyText(response.data, contentType: response.headers["Content-Type"], secrets: secrets)
        }
        return text
    }

    private func headerFields(_ headers: HTTPHeaders, secrets: KnownSecrets) -> [(name: String, value: String)] {
        SecretRedactor.redact(headers: headers, secrets: secrets, rules: redaction.rules)
    }

    private func headerLines(_ headers: [(name: String, value: String)]) -> String {
        headers.map { "\n  \($0.name): \($0.value)" }.joined()
    }

    private func bodyText(_ data: Data, contentType: String?, secrets: KnownSecrets) -> String {
        guard let text = BodyText.text(data, contentType: contentType, pretty: true, redaction: redaction, secrets: secrets) else {
            return BodyText.summary(data, contentType: contentType)
        }
        return BodyText.truncate(text, limit: bodyLimit).replacingOccurrences(of: "\n", with: "\n  ")
    }
}
