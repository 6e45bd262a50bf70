import NetRedaction
import Foundation
import NetCore

/// Copies of a request, a response or an error with their secrets replaced, for code the plugin
/// does not control (a custom ``LoggerPlugin/Formatter``): the URL without userinfo and with
/// secret query values replaced, redacted headers, in-memory bodies redacted by structure and by
/// known secrets. Slow path only.
struct RedactedView {
    let redaction: Redaction
    let secrets: KnownSecrets

    func request(_ request: Request) -> Request {
        var shown = request
        shown.url = url(request.url)
        shown.headers = headers(request.headers)
        switch request.body {
        case .none, .file:
            // A file body is a path, not bytes; the formatter's output is scrubbed anyway.
            break
        case .data, .multipart:
            // A multipart body with file parts has no public bytes to read.
            if let data = request.body.inMemoryData, !data.isEmpty {
                shown.body = .data(BodyText.redactedBytes(data, contentType: SecretRedactor.contentType(of: request), redaction: redaction, secrets: secrets))
            }
        }
        return shown
    }

    func response(_ response: Response) -> Response {
        var shown = response
        shown.request = request(response.request)
        shown.headers = headers(response.headers)
        if !response.data.isEmpty {
            shown.data = BodyText.redactedBytes(
                response.data, contentType: response.headers["Content-Type"], redaction: redaction, secrets: secrets)
        }
        return shown
    }

    /// `error` with the response it carries redacted; its texts are left to the output scrub.
    func error(_ error: NetworkError) -> NetworkError {
        switch error {
        case .unacceptableStatus(let kept):
            .unacceptableStatus(response(kept))
        case .unacceptableContentType(let kept, let accepted):
            .unacceptableContentType(response(kept), accepted: accepted)
        case .businessCode(let code, let message, let kept):
            .businessCode(code: code, message: message, response: response(kept))
        case .decodingFailed(let type, let keyPath, let reason, let excerpt, let kept?, let underlying):
            .decodingFailed(type: type, keyPath: keyPath, reason: reason, bodyExcerpt: excerpt, response: response(kept), underlying: underlying)
        default:
            error
        }
    }

    func result(_ result: Result<Response, NetworkError>) -> Result<Response, NetworkError> {
        switch result {
        case .success(let kept): .success(response(kept))
        case .failure(let failure): .failure(error(failure))
        }
    }

    /// `text` written from such copies, scrubbed once more: `url`'s raw text becomes its
    /// redacted form, userinfo goes, and every known secret is replaced.
    func scrub(_ text: String, url: URL) -> String {
        SecretRedactor.redact(text: text, url: url, secrets: secrets, rules: redaction.rules)
    }

    private func headers(_ headers: HTTPHeaders) -> HTTPHeaders {
        HTTPHeaders(allFields: SecretRedactor.redact(headers: headers, secrets: secrets, rules: redaction.rules).map { .init(name: $0.name, value: $0.value) })
    }

    private func url(_ url: URL) -> URL {
        let text = redaction.redact(url)
        if text == url.absoluteString { return url }
        if let redacted = URL(string: text) { return redacted }
        // Not expected (the redacted text comes from a valid URL): keep only what cannot be secret.
        var components = URLComponents()
        components.scheme = url.scheme
        components.host = url.host
        components.port = url.port
        components.path = url.path
        return components.url ?? URL(string: "about:blank")!
    }
}
