import Foundation
import NetRedaction

extension SecretRedactor {
    /// The request's content type: its `Content-Type` header, or a multipart body's own type.
    package static func contentType(of request: Request) -> String? {
        if let type = request.headers["Content-Type"] { return type }
        if case .multipart(let body) = request.body { return body.contentType }
        return nil
    }

    /// The request's body redacted (see ``redact(body:contentType:secrets:rules:)``), or `nil`
    /// when it is not in memory (a file, or multipart with file parts).
    package static func redactedBody(of request: Request, secrets: KnownSecrets, rules: RedactionRules = .default) -> Data? {
        request.body.inMemoryData.map { redact(body: $0, contentType: contentType(of: request), secrets: secrets, rules: rules) }
    }
}
