#if OpenAPI
    import Foundation
    import NetCore
    import OpenAPIRuntime

    /// Turns an `HTTPBody` into NetKit request content without holding a large body in memory: a
    /// body of known length up to a limit is collected; a larger one, or one of unknown length, is
    /// written chunk by chunk to a temporary file that the transports then stream (and a retry
    /// reads again). The file is removed once the exchange no longer needs it.
    struct RequestBodySpool: Sendable {
        /// What the target sends.
        let content: RequestContent
        /// The temporary file, when the body was spooled.
        let file: URL?

        /// The content for `body` (`.plain` without one); `contentType` is the content type
        /// NetKit would otherwise set (the request's own `Content-Type` header wins).
        static func make(_ body: HTTPBody?, contentType: String, inMemoryLimit: Int) async throws -> RequestBodySpool {
            guard let body else { return RequestBodySpool(content: .plain, file: nil) }
            if case .known(let length) = body.length, length <= Int64(inMemoryLimit) {
                let bytes = try await ArraySlice(collecting: body, upTo: inMemoryLimit)
                return RequestBodySpool(content: .data(Data(bytes), contentType: contentType), file: nil)
            }
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("netkit-openapi-body-\(UUID().uuidString)")
            guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
                throw NetworkError.fileSystem(reason: "could not create \(file.path) for a request body", underlying: nil)
            }
            do {
                let handle = try FileHandle(forWritingTo: file)
                defer { try? handle.close() }
                for try await chunk in body {
                    try handle.write(contentsOf: chunk)
                }
            } catch {
                try? FileManager.default.removeItem(at: file)
                throw error
            }
            return RequestBodySpool(content: .file(file, contentType: contentType), file: file)
        }

        /// Removes the temporary file, if there is one.
        func remove() {
            if let file { try? FileManager.default.removeItem(at: file) }
        }
    }
#endif
