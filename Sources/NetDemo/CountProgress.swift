import NetToolbox
import Foundation
import NetCore

/// "finished n/total" for concurrent work: redrawn in place on a terminal, otherwise a plain
/// line every quarter of the total.
final class CountProgress: Sendable {
    private let total: Int
    private let count = Locked(0)

    init(total: Int) { self.total = total }

    /// Counts one more finished item and shows it, under the lock so that lines come in order.
    func increment() {
        count.withLock { count in
            count += 1
            if Console.isTerminal {
                print("\r  finished \(count)/\(total)", terminator: count == total ? "\n" : "")
            } else if count == total || count % max(1, total / 4) == 0 {
                print("  finished \(count)/\(total)")
            }
        }
    }
}
