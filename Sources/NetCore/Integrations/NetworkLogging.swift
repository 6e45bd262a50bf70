#if Logging
    import NetRedaction
    import NetToolbox
    import Foundation
    import Logging
    import NetBase

    /// The levels NetKit logs a call's events at (package trait `Logging`). Nothing on a
    /// success path is logged above `.debug` unless you raise it here.
    public struct NetworkLogLevels: Sendable, Hashable {
        /// A call that ended with a response, or was cancelled. Default `.debug`.
        public var success: Logger.Level
        /// A call that ended with an error. Default `.warning`.
        public var failure: Logger.Level
        /// A retry about to wait. Default `.debug`.
        public var retry: Logger.Level
        /// Everything between: the start, attempts, redirects, cache decisions and each attempt's
        /// outcome. Default `.trace`.
        public var detail: Logger.Level

        /// Creates levels; every argument has its default.
        public init(success: Logger.Level = .debug, failure: Logger.Level = .warning, retry: Logger.Level = .debug, detail: Logger.Level = .trace) {
            self.success = success
            self.failure = failure
            self.retry = retry
            self.detail = detail
        }
    }

    /// Writes a call's events to a swift-log `Logger`, with metadata: `netkit.request_id`,
    /// `netkit.target`, `http.request.method`, `url.full` (redacted), `netkit.attempt`, and where
    /// known `http.response.status_code`, `netkit.duration_ms`, `error.type`. Every value goes
    /// through NetKit's redaction model: URLs lose userinfo and secret query values, errors are
    /// described without secrets, targets are named by type and case only.
    struct LoggingObserver: NetworkEventObserver {
        /// The provider's logger; nil while only levels are set.
        var logger: Logger?
        var levels: NetworkLogLevels
        /// Logs to the call's own logger (``Provider/request(_:logger:)``) instead of `logger`.
        var perCall = false

        var isActive: Bool { logger != nil || perCall }

        func observe(_ event: NetworkEvent) {
            // The level first: a line below the logger's level costs no task-local lookup, no
            // string and no metadata.
            // The kind's tag first: reading its payload copies the event's response (a value
            // without a fixed layout, copied through the runtime), needed only when the line
            // could be logged at all.
            let ceiling: Logger.Level
            switch event.kind {
            case .callEnded: ceiling = max(levels.success, levels.failure)
            case .retryScheduled: ceiling = levels.retry
            default: ceiling = levels.detail
            }
            let target: Logger
            if perCall {
                guard let callLogger = CallLogger.current, callLogger.logLevel <= ceiling else { return }
                target = callLogger
            } else {
                guard let logger, logger.logLevel <= ceiling else { return }
                // A call with its own logger logs there only.
                guard CallLogger.current == nil else { return }
                target = logger
            }
            let level = Self.level(of: event.kind, levels: levels)
            guard target.logLevel <= level else { return }
            let (_, message) = Self.line(for: event.kind, levels: levels)
            target.log(level: level, "\(message)", metadata: Self.metadata(event))
        }

        /// The level of an event, without building its text.
        static func level(of kind: NetworkEvent.Kind, levels: NetworkLogLevels) -> Logger.Level {
            switch kind {
            case .retryScheduled: levels.retry
            case .callEnded(.success, _): levels.success
            case .callEnded(.failure(let error), _): error.isCancellation ? levels.success : levels.failure
            default: levels.detail
            }
        }

        /// The level and text of an event.
        static func line(for kind: NetworkEvent.Kind, levels: NetworkLogLevels) -> (Logger.Level, String) {
            switch kind {
            case .callStarted: (levels.detail, "call started")
            case .attemptStarted: (levels.detail, "attempt started")
            case .retryScheduled(let delay, let reason): (levels.retry, "retry in \(UnitText.milliseconds(delay).text) after \(outcome(reason))")
            case .redirectFollowed(let status, let location):
                (levels.detail, "redirect \(status) to \(SecretRedactor.redact(url: location))")
            case .cacheHit: (levels.detail, "cache hit")
            case .cacheMiss: (levels.detail, "cache miss")
            case .cacheRevalidated: (levels.detail, "cache revalidated")
            case .response(let response): (levels.detail, "response \(response.statusCode)")
            case .failure(let error): (levels.detail, "attempt failed: \(error.code.rawValue)")
            case .callEnded(.success(let response), let duration):
                (levels.success, "\(response.statusCode) in \(UnitText.milliseconds(duration).text)")
            case .callEnded(.failure(let error), let duration):
                (error.isCancellation ? levels.success : levels.failure, "failed in \(UnitText.milliseconds(duration).text): \(error)")
            }
        }

        private static func outcome(_ result: Result<Response, NetworkError>) -> String {
            switch result {
            case .success(let response): "\(response.statusCode)"
            case .failure(let error): error.code.rawValue
            }
        }

        /// The event's metadata (built only when the level is logged).
        static func metadata(_ event: NetworkEvent) -> Logger.Metadata {
            let request = event.request
            var metadata: Logger.Metadata = [
                "netkit.request_id": "\(request.id.uuidString)",
                "netkit.target": "\(targetDescription(request.target))",
                "http.request.method": "\(request.method.rawValue)",
                "url.full": "\(SecretRedactor.redact(url: request.url))",
                "netkit.attempt": "\(request.attempt)",
            ]
            switch event.kind {
            case .response(let response), .callEnded(.success(let response), _):
                metadata["http.response.status_code"] = "\(response.statusCode)"
            case .failure(let error), .callEnded(.failure(let error), _):
                metadata["error.type"] = "\(error.code.rawValue)"
                if let status = error.response?.statusCode { metadata["http.response.status_code"] = "\(status)" }
            default:
                break
            }
            if case .callEnded(_, let duration) = event.kind {
                metadata["netkit.duration_ms"] = "\(Double(duration / .microseconds(1)) / 1_000)"
            }
            return metadata
        }
    }

    /// The logger of the call the current task runs (``Provider/request(_:logger:)``).
    enum CallLogger {
        @TaskLocal static var current: Logger?
    }

    extension ProviderConfiguration {
        /// The swift-log logger every call of the provider logs to (package trait `Logging`), at
        /// ``logLevels``. Default `nil`: nothing is logged and no event is made for it.
        public var logger: Logger? {
            get { loggingObserver.logger }
            set { loggingObserver.logger = newValue }
        }

        /// The levels ``logger`` gets each kind of event at. Default: ``NetworkLogLevels/init(success:failure:retry:detail:)``.
        public var logLevels: NetworkLogLevels {
            get { loggingObserver.levels }
            set { loggingObserver.levels = newValue }
        }

        private var loggingObserver: LoggingObserver {
            get { integrationObservers["Logging"]?.observer as? LoggingObserver ?? LoggingObserver(levels: NetworkLogLevels()) }
            set { integrationObservers["Logging"] = IntegrationObserver(newValue, isActive: newValue.isActive) }
        }
    }

    extension Provider {
        /// Sends `target` like ``request(_:)``, logging its events to `logger` instead of the
        /// configuration's ``ProviderConfiguration/logger`` (at ``ProviderConfiguration/logLevels``).
        /// - Throws: ``NetworkError``.
        public func request(_ target: Target, logger: Logger) async throws(NetworkError) -> Response {
            let observer = LoggingObserver(logger: nil, levels: configuration.logLevels, perCall: true)
            let result = await CallLogger.$current.withValue(logger) {
                await TaskEventObservers.$current.withValue(TaskEventObservers.current + [observer]) {
                    () async -> Result<Response, NetworkError> in
                    do throws(NetworkError) { return .success(try await request(target)) } catch { return .failure(error) }
                }
            }
            return try result.get()
        }
    }
#endif
