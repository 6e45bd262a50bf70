// The code of the article "Caching" (Sources/NetCore/NetCore.docc/Caching.md): ArticleTwinTests
// requires this file to open with the article's first block and to import nothing else.
import Foundation
import NetCore
import NetPlugins

/// The `Blog` API of "Describing an API", cached for five minutes in memory and on disk.
func makeCachedBlogProvider(cachesDirectory: URL) -> Provider<Blog> {
    let cache = CachePlugin(
        storage: .memoryAndDisk(directory: cachesDirectory),  // or .memory() or .disk(directory:)
        policy: .cacheElseNetwork,
        maxAge: .seconds(300))
    return Provider<Blog>(plugins: [cache])
}

/// The article's second block: a private HTTP cache that revalidates through `transport`.
func makeHTTPCache(transport: any Transport) -> CachePlugin {
    let cache = CachePlugin(
        storage: .memory(), policy: .http, isPrivate: true, revalidationTransport: transport)
    return cache
}
