@testable import NetToolbox
import Foundation
import Testing

@Suite("OnceValue: resume once, whoever comes first")
struct OnceValueTests {
    @Test("The first resolve wins; later ones are ignored and say so")
    func firstResolveWins() async {
        let once = OnceValue<Int>()
        #expect(once.current == nil)
        #expect(once.resolve(1))
        #expect(!once.resolve(2))
        #expect(once.current == 1)
        #expect(await once.value() == 1)
    }

    @Test("Every waiter gets the value, those before and those after it was set")
    func everyWaiterGetsTheValue() async {
        let once = OnceValue<String>()
        let early = (0..<20).map { _ in Task { await once.value() } }
        while once.waiterCount < 20 { await Task.yield() }
        once.resolve("done")
        for waiter in early { #expect(await waiter.value == "done") }
        #expect(await once.value() == "done")
    }

    @Test("Of many racing resolves exactly one wins, and every waiter sees that one")
    func racingResolves() async {
        for _ in 0..<200 {
            let once = OnceValue<Int>()
            let waiter = Task { await once.value() }
            let wins = await withTaskGroup(of: Bool.self) { group in
                for number in 0..<8 { group.addTask { once.resolve(number) } }
                return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
            }
            #expect(wins == 1)
            #expect(await waiter.value == once.current)
        }
    }

    @Test("A waiter that leaves gets its own value; the others keep waiting for the real one")
    func leavingEndsOneWaiter() async {
        let once = OnceValue<Int>()
        let leaving = once.ticket()
        let staying = once.ticket()
        let left = Task { await once.value(leaving) }
        let stays = Task { await once.value(staying) }
        while once.waiterCount < 2 { await Task.yield() }
        #expect(once.leave(leaving, with: -1))
        #expect(await left.value == -1)
        once.resolve(7)
        #expect(await stays.value == 7)
    }

    @Test("Leaving before waiting is remembered; leaving after the value was set does nothing")
    func leaveBeforeWaitAndAfterResolve() async {
        let once = OnceValue<Int>()
        let early = once.ticket()
        #expect(once.leave(early, with: -1))
        #expect(await once.value(early) == -1)
        once.resolve(3)
        let late = once.ticket()
        #expect(!once.leave(late, with: -1))
        #expect(await once.value(late) == 3)
    }
}
