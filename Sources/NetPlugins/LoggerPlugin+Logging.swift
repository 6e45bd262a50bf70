#if Logging
    import Foundation
    import Logging
    import NetCore

    extension LoggerPlugin {
        /// A logger plugin whose lines (the same formats, the same redaction) go to a swift-log
        /// `logger` at `level` (package trait `Logging`), instead of to a closure.
        ///
        /// ```swift
        /// LoggerPlugin(logger: Logger(label: "api"), level: .debug, verbosity: .verbose)
        /// ```
        /// - Parameters:
        ///   - logger: Receives every entry, with `netkit.source: LoggerPlugin` metadata.
        ///   - level: The level of every entry. Default `.debug`: nothing above `.debug` on a success path.
        ///   - verbosity: ``Verbosity/compact`` (default) or ``Verbosity/verbose``.
        ///   - bodyLimit: In verbose mode, bodies longer than this many characters are cut. Default 4096.
        ///   - includesCurlCommand: Adds a redacted `curl` command after each request line. Default off.
        ///   - redaction: Names whose values are hidden. Default: ``Redaction/default``.
        ///   - formatter: Writes the request and outcome lines. Default: ``Formatter/default``.
        public init(
            logger: Logger, level: Logger.Level = .debug, verbosity: Verbosity = .compact, bodyLimit: Int = 4096,
            includesCurlCommand: Bool = false, redaction: Redaction = .default, formatter: Formatter = .default
        ) {
            self.init(
                verbosity: verbosity, bodyLimit: bodyLimit, includesCurlCommand: includesCurlCommand, redaction: redaction,
                formatter: formatter, output: { line in logger.log(level: level, "\(line)", metadata: ["netkit.source": "LoggerPlugin"]) })
        }
    }
#endif
