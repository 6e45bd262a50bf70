#if OpenAPI
    import Foundation
    import HTTPTypes
    import NetCore

    extension HTTPFields {
        /// The fields of NetKit `headers`, in order. A name that is not a valid field name is left out.
        public init(_ headers: HTTPHeaders) {
            self.init()
            for field in headers {
                guard let name = HTTPField.Name(field.name) else { continue }
                append(HTTPField(name: name, value: field.value))
            }
        }
    }

    extension HTTPHeaders {
        /// NetKit headers from swift-http-types `fields`; repeated names are joined with `", "`
        /// (RFC 9110 §5.3), as NetKit's transports do.
        public init(_ fields: HTTPFields) {
            var joined: [(String, String)] = []
            var index: [String: Int] = [:]
            for field in fields {
                let key = field.name.canonicalName
                if let existing = index[key] {
                    joined[existing].1 += ", " + field.value
                } else {
                    index[key] = joined.count
                    joined.append((field.name.rawName, field.value))
                }
            }
            self.init(fields: joined)
        }
    }

    extension HTTPMethod {
        /// The NetKit method of a swift-http-types method.
        public init(_ method: HTTPRequest.Method) {
            self.init(rawValue: method.rawValue)
        }
    }

    extension HTTPRequest {
        /// The swift-http-types request head of a NetKit request: method, scheme, authority,
        /// path with query, and header fields (the body stays in ``Request/body``).
        public init(_ request: Request) {
            let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false)
            var authority = components?.percentEncodedHost ?? ""
            if let port = components?.port { authority += ":\(port)" }
            var path = components?.percentEncodedPath ?? "/"
            if path.isEmpty { path = "/" }
            if let query = components?.percentEncodedQuery { path += "?" + query }
            self.init(
                method: HTTPRequest.Method(request.method.rawValue) ?? .get, scheme: components?.scheme, authority: authority, path: path,
                headerFields: HTTPFields(request.headers))
        }
    }

    extension HTTPResponse {
        /// The swift-http-types response head of a NetKit response: status and header fields.
        public init(_ response: Response) {
            self.init(status: HTTPResponse.Status(code: response.statusCode), headerFields: HTTPFields(response.headers))
        }
    }

    extension Response {
        /// A NetKit response from a swift-http-types head, its `body` and the `request` it answers.
        public init(_ response: HTTPResponse, body: Data = Data(), request: Request) {
            self.init(statusCode: response.status.code, headers: HTTPHeaders(response.headerFields), data: body, request: request)
        }
    }
#endif
