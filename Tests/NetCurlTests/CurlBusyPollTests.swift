import Foundation
@testable import NetBase
@testable import NetCore
@testable import NetCurl
import NetTestSupport
import Testing

/// `busyPoll` changes when a loop sleeps, never what a request gets: answers, deadlines and
/// cancellation behave as on a loop that sleeps at once.
@Suite("A busy-polling loop", .timeLimit(.minutes(1)))
struct CurlBusyPollTests {
    static let transport = CurlTransport(configuration: .init(busyPoll: .microseconds(200)))

    @Test(.liveServers) func answersOneRequestAfterAnotherAndSeveralAtOnce() async throws {
        let nginx = try TestServers.require("NETKIT_NGINX_URL")
        let request = Request.to(nginx.appendingPathComponent("small.json"))
        for _ in 0..<20 { #expect(try await Self.transport.send(request).statusCode == 200) }
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<16 { group.addTask { try await Self.transport.send(request).statusCode } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 16))
    }

    @Test(.liveServers) func endsASilentServerAtTheDeadlineAndACancelledCallAtOnce() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let hang = fault.appendingPathComponent("hang")
        let started = ContinuousClock.now
        let timedOut = await networkError { try await Self.transport.send(Request.to(hang, timeout: .milliseconds(300))) }
        let elapsed = ContinuousClock.now - started
        guard case .timedOut = timedOut else {
            Issue.record("got \(String(describing: timedOut))")
            return
        }
        #expect(elapsed < .seconds(2), "ended after \(elapsed)")

        let call = Task { try await Self.transport.send(Request.to(hang, timeout: .seconds(30))) }
        try await Task.sleep(for: .milliseconds(100))
        call.cancel()
        let cancelled = await networkError { try await call.value }
        #expect(cancelled?.isCancellation == true, "got \(String(describing: cancelled))")
    }

    @Test(.liveServers) func aWindowOfSecondsIsClampedSoDeadlinesHold() async throws {
        let fault = try TestServers.require("NETKIT_FAULT_URL")
        let transport = CurlTransport(configuration: .init(busyPoll: .seconds(5)))
        #expect(transport.configuration.effectiveBusyPoll == .milliseconds(1))
        let started = ContinuousClock.now
        let error = await networkError {
            try await transport.send(Request.to(fault.appendingPathComponent("hang"), timeout: .milliseconds(300)))
        }
        let elapsed = ContinuousClock.now - started
        guard case .timedOut = error else {
            Issue.record("got \(String(describing: error))")
            return
        }
        #expect(elapsed < .seconds(2), "ended after \(elapsed)")
        #expect(CurlTransport.Configuration(busyPoll: .microseconds(-5)).effectiveBusyPoll == .zero)
    }
}
