import Foundation
import Dispatch

func micro() async {
    let n = 20_000
    let clock = ContinuousClock()
    var start = clock.now
    for _ in 0..<n { _ = await Task { 1 }.value }
    print("Task{}.value:", (clock.now - start) / n)
    start = clock.now
    for _ in 0..<n {
        let timer = DispatchSource.makeTimerSource(queue: .global())
        timer.schedule(deadline: .now() + .seconds(60))
        timer.setEventHandler {}
        timer.resume()
        timer.cancel()
    }
    print("timer source:", (clock.now - start) / n)
    start = clock.now
    for _ in 0..<n { _ = UUID() }
    print("UUID:", (clock.now - start) / n)
    start = clock.now
    for _ in 0..<n { _ = URL(string: "http://127.0.0.1:8080/small.json") }
    print("URL(string:):", (clock.now - start) / n)
    start = clock.now
    for _ in 0..<n { _ = await withCheckedContinuation { (c: CheckedContinuation<Int, Never>) in c.resume(returning: 1) } }
    print("continuation:", (clock.now - start) / n)
}
