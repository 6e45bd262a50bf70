import Foundation
import Logging
import NIOCore
import Synchronization
import NetCore
import WSClient

/// swift-websocket's `WSClient` on SwiftNIO: the peer of the WebSocket peer benchmark.
struct NIOPeer: PeerClient {
    let logger = Logger(label: "peer") { _ in SwiftLogNoOpLogHandler() }

    func hold(_ count: Int, url: URL, measure: @Sendable () -> Void) async throws {
        let opened = Counter()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<count {
                group.addTask { [logger] in
                    _ = try? await WebSocketClient.connect(url: url.absoluteString, logger: logger) { inbound, outbound, _ in
                        try await outbound.write(.text("hi"))
                        var iterator = inbound.messages(maxSize: 1 << 20).makeAsyncIterator()
                        _ = try await iterator.next()
                        opened.add()
                        // Held open until the group is cancelled.
                        try await Task.sleep(for: .seconds(3600))
                    }
                }
                if (index + 1) % 250 == 0 || index + 1 == count {
                    while opened.value < index + 1 { try await Task.sleep(for: .milliseconds(5)) }
                }
            }
            measure()
            group.cancelAll()
        }
    }

    func echo(url: URL, size: Int, total: Int, inFlight: Int) async throws -> (Double, Double) {
        let box = ResultBox()
        _ = try await WebSocketClient.connect(
            url: url.absoluteString, configuration: .init(maxFrameSize: 1 << 24), logger: logger
        ) { inbound, outbound, _ in
            var iterator = inbound.messages(maxSize: 1 << 24).makeAsyncIterator()
            let payload = ByteBuffer(repeating: 0x61, count: size)
            let text = String(repeating: "a", count: size)
            box.value = try await echoLoop(
                total: total, inFlight: inFlight,
                send: { try await outbound.write(size <= 16 ? .text(text) : .binary(payload)) },
                receive: { _ = try await iterator.next() })
        }
        return box.value
    }
}

/// A count several tasks add to.
final class Counter: Sendable {
    private let count = Mutex(0)
    func add() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// The echo loop's result, out of the client's closure.
final class ResultBox: Sendable {
    private let stored = Mutex<(Double, Double)>((0, 0))
    var value: (Double, Double) {
        get { stored.withLock { $0 } }
        set { stored.withLock { $0 = newValue } }
    }
}
