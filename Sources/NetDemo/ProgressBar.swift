import Foundation
import NetCore
import Synchronization

/// A one-line terminal progress bar, redrawn in place.
final class ProgressBar: Sendable {
    private let label: String
    private let lastDrawn = Locked<Int>(-1)

    init(_ label: String) { self.label = label }

    /// Draws `fraction` (0...1) with the byte count; skips redraws that would look the same.
    func update(_ fraction: Double, bytes: Int64) {
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        let changed = lastDrawn.withLock { last in
            defer { last = percent }
            return last != percent
        }
        guard changed else { return }
        let width = 30
        let filled = percent * width / 100
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = "\r  \(label) [\(bar)] \(String(format: "%3d", percent))%  \(ByteCountFormatter.string(fromByteCount: bytes, countStyle: .binary))"
        print(line, terminator: "")
        fflush(nil)
    }

    /// Ends the line.
    func finish() { print("") }
}
