import Foundation

/// Progress of one direction of a transfer.
public struct TransferProgress: Sendable, Hashable {
    /// Which direction.
    public enum Direction: Sendable, Hashable {
        case upload
        case download
    }

    /// Upload or download.
    public var direction: Direction
    /// Bytes transferred so far.
    public var completedBytes: Int64
    /// Total bytes expected, when known.
    public var totalBytes: Int64?

    /// Creates a progress value.
    public init(direction: Direction, completedBytes: Int64, totalBytes: Int64?) {
        self.direction = direction
        self.completedBytes = completedBytes
        self.totalBytes = totalBytes
    }

    /// `completedBytes / totalBytes` in 0...1, when the total is known.
    public var fractionCompleted: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(completedBytes) / Double(totalBytes))
    }
}
