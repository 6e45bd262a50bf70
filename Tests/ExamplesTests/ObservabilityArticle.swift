// The code of the article "Observability" (Sources/NetCore/NetCore.docc/Observability.md):
// ArticleTwinTests requires this file to open with the article's first block and to import
// nothing else at its top. The trait block compiles when the traits are on (CI's second pass).
import Foundation
import NetCore

/// Prints how long each call of the `Blog` API took, and how it ended.
struct CallTimes: NetworkEventObserver {
    func observe(_ event: NetworkEvent) {
        guard case .callEnded(let result, let duration) = event.kind else { return }
        let status = (try? result.get().statusCode).map(String.init) ?? "failed"
        print("\(event.request.target) \(status) in \(duration)")
    }
}

func makeObservedBlogProvider() -> Provider<Blog> {
    var configuration = ProviderConfiguration()
    configuration.eventObservers = [CallTimes()]
    return Provider<Blog>(configuration: configuration)
}

#if Logging
    import Logging
#endif

#if Logging && Metrics && Tracing
    func makeFullyObservedProvider(logger: Logger) -> Provider<Blog> {
        var configuration = ProviderConfiguration()
        configuration.logger = logger
        configuration.metrics = NetworkMetrics()
        return Provider<Blog>(plugins: [TracingPlugin()], configuration: configuration)
    }
#endif
