// The code of the article "OpenAPI clients" (Sources/NetCore/NetCore.docc/OpenAPIClients.md):
// ArticleTwinTests requires this file to open with the article's first block and to import
// nothing else. The transport compiles when the OpenAPI trait is on (CI's second pass).
import Foundation
import NetOpenAPI
import NetPlugins

#if OpenAPI
    /// The transport of a generated client: retries, an HTTP cache and logging, on the
    /// platform's default transport (libcurl on Linux).
    func makeOpenAPITransport() -> NetKitTransport {
        let plugins: [any Plugin] = [
            RetryPlugin(), CachePlugin(policy: .http), LoggerPlugin(),
        ]
        return NetKitTransport(plugins: plugins, responseBodies: .buffered)
        // let client = Client(serverURL: url, transport: makeOpenAPITransport())
    }
#endif
