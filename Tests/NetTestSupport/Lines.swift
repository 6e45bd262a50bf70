import NetToolbox
import NetCore

/// Collects the lines a plugin writes (a logger's output), from any task.
public final class Lines: Sendable {
    private let storage = Locked<[String]>([])

    /// No lines yet.
    public init() {}

    /// The lines in the order they were written.
    public var all: [String] { storage.withLock { $0 } }
    /// The lines joined by newlines.
    public var joined: String { all.joined(separator: "\n") }
    /// A sink to hand to the plugin.
    public var sink: @Sendable (String) -> Void { { line in self.storage.withLock { $0.append(line) } } }
}
