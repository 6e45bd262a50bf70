import Foundation
import NetRedaction

extension KnownSecrets {
    /// The secrets of `request`, and of `responseHeaders` when given, under `rules`.
    package init(request: Request, responseHeaders: HTTPHeaders? = nil, rules: RedactionRules = .default) {
        self.init()
        for field in request.headers where rules.redactsHeader(field.name) { addHeader(field.name, field.value) }
        // A cookie jar adds its Cookie header on the wire only, so its values are collected here.
        if let jar = request.cookieJar, rules.redactsHeader("Cookie") {
            for cookie in jar.cookies(for: request.url) { add(cookie.value) }
        }
        if let responseHeaders {
            for field in responseHeaders where rules.redactsHeader(field.name) { addHeader(field.name, field.value) }
        }
        addSecrets(of: request.url, rules: rules)
        if let data = request.body.inMemoryData {
            addHiddenFields(of: data, contentType: SecretRedactor.contentType(of: request), rules: rules)
        }
    }
}
