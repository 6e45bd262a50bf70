#if Logging
    import Foundation
    import InMemoryLogging
    import Logging
    import NetPlugins
    import NetTestSupport
    import Testing

    @testable import NetCore

    /// Trait `Logging`: a call's events reach a swift-log Logger with levels and redacted metadata.
    @Suite(.liveServers)
    struct LoggingTraitTests {
        private func logger(_ handler: InMemoryLogHandler) -> Logger {
            var logger = Logger(label: "netkit.tests") { _ in handler }
            logger.logLevel = .trace
            return logger
        }

        @Test("A retried live call logs each step with redacted metadata; its final failure is a warning", arguments: TransportKind.allCases)
        func retriedFailure(kind: TransportKind) async throws {
            _ = try requireHTTPBin()
            let handler = InMemoryLogHandler()
            var configuration = ProviderConfiguration()
            configuration.logger = logger(handler)
            let retry = RetryPlugin(maxRetries: 1, baseDelay: .milliseconds(1), jitter: false, retryableStatuses: [503])
            let provider = Provider<Bin>(transport: kind.make(), plugins: [retry], configuration: configuration)
            await #expect(throws: NetworkError.self) { try await provider.request(.status(503)) }
            let entries = handler.entries
            #expect(entries.map(\.level) == [.trace, .trace, .trace, .debug, .trace, .trace, .warning])
            let last = try #require(entries.last)
            #expect(last.metadata["error.type"] == "unacceptableStatus")
            #expect(last.metadata["http.response.status_code"] == "503")
            #expect(last.metadata["netkit.attempt"] == "2")
            #expect(last.metadata["netkit.target"] == "Bin.status")
            #expect(last.metadata["http.request.method"] == "GET")
            #expect(last.metadata["netkit.duration_ms"] != nil)
            #expect(Set(entries.compactMap { $0.metadata["netkit.request_id"]?.description }).count == 1)
        }

        @Test("A successful live call logs nothing above .debug, and secret query values never reach the metadata")
        func successIsQuietAndRedacted() async throws {
            _ = try requireHTTPBin()
            let handler = InMemoryLogHandler()
            var configuration = ProviderConfiguration()
            configuration.logger = logger(handler)
            _ = try await Provider<Bin>(configuration: configuration).request(.get(["token": "s3cr3t", "page": 2]))
            let entries = handler.entries
            #expect(!entries.isEmpty)
            #expect(entries.allSatisfy { $0.level <= .debug })
            #expect(entries.last?.level == .debug && entries.last?.metadata["http.response.status_code"] == "200")
            let text = entries.map { "\($0.message) \($0.metadata)" }.joined()
            #expect(!text.contains("s3cr3t"))
            #expect(entries.last?.metadata["url.full"]?.description.contains("token=%3Credacted%3E") == true)
        }

        @Test("A per-call logger gets that call's lines instead of the provider's; other calls stay with the provider's")
        func perCallLogger() async throws {
            let shared = InMemoryLogHandler()
            let own = InMemoryLogHandler()
            var configuration = ProviderConfiguration()
            configuration.logger = logger(shared)
            let provider = Provider<Bin>(transport: StubTransport(), configuration: configuration)
            _ = try await provider.request(.headers, logger: logger(own))
            #expect(shared.entries.isEmpty)
            #expect(own.entries.count == 4)
            _ = try await provider.request(.headers)
            #expect(shared.entries.count == 4 && own.entries.count == 4)
        }

        @Test("LoggerPlugin(logger:) writes its formatted, redacted lines to the logger at its level")
        func loggerPlugin() async throws {
            let handler = InMemoryLogHandler()
            let plugin = LoggerPlugin(logger: logger(handler), level: .info)
            _ = try await Provider<Bin>(transport: StubTransport(), plugins: [plugin]).request(.get(["password": "hunter2"]))
            #expect(handler.entries.count == 2)
            #expect(handler.entries.allSatisfy { $0.level == .info && $0.metadata["netkit.source"] == "LoggerPlugin" })
            #expect(!handler.entries.map { "\($0.message)" }.joined().contains("hunter2"))
        }

        @Test("A provider without a logger makes no event for logging")
        func noLoggerNoEvents() {
            var configuration = ProviderConfiguration()
            configuration.logLevels = NetworkLogLevels(success: .info)
            #expect(configuration.logger == nil && configuration.logLevels.success == .info)
            #expect(Provider<Bin>(configuration: configuration).pipeline.observers.isEmpty)
        }
    }
#endif
