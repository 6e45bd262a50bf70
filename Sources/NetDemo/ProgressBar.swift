import NetToolbox
import Foundation
import NetCore

/// Transfer progress: on a terminal, a bar redrawn in place; otherwise (a log file, a pipe) a
/// plain line at 25, 50, 75 and 100 %.
final class ProgressBar: Sendable {
    private let label: String
    private let lastShown = Locked<Int>(-1)

    init(_ label: String) { self.label = label }

    /// Shows `fraction` (0...1) with the byte count; skips updates that would look the same.
    func update(_ fraction: Double, bytes: Int64) {
        let percent = Int((min(max(fraction, 0), 1) * 100).rounded(.down))
        let step = Console.isTerminal ? percent : percent / 25 * 25
        let changed = lastShown.withLock { last in
            defer { last = max(last, step) }
            return step > last
        }
        guard changed, Console.isTerminal || step > 0 else { return }
        let size = ByteCountFormatter.string(fromByteCount: bytes, countStyle: .binary)
        if Console.isTerminal {
            let width = 30
            let filled = percent * width / 100
            let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
            print("\r  \(label) [\(bar)] \(String(format: "%3d", percent))%  \(size)", terminator: "")
        } else {
            print("  \(label) \(String(format: "%3d", step))%  \(size)")
        }
    }

    /// Ends the bar's line (nothing to do for plain lines).
    func finish() {
        if Console.isTerminal { print("") }
    }
}
