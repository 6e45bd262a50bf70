import Foundation
import NetBase
import NetTestSupport
import Testing

/// `Request` and `Response` keep their fields in a shared immutable box (issue 36): they must still
/// behave as plain values, and a value no copy shares must change its fields in place.
@Suite("Request and Response as values")
struct SharedFieldsTests {
    private let url = URL(string: "https://api.example.com/items")!

    private func request() -> Request {
        Request(url: url, headers: ["Accept": "application/json"], target: TestTarget())
    }

    @Test("a change to a copy leaves the original as it was, for every boxed field")
    func copiesAreIndependent() {
        let original = request()
        var copy = original
        copy.headers["X-Copy"] = "1"
        copy.url = URL(string: "https://other.example.com")!
        copy.method = .post
        copy.body = .data(Data("x".utf8))
        #expect(original.headers["X-Copy"] == nil)
        #expect(original.url == url)
        #expect(original.method == .get)
        if case .none = original.body {} else { Issue.record("the original's body changed") }
        #expect(copy.headers["X-Copy"] == "1" && copy.method == .post && copy.id == original.id)

        let response = Response(statusCode: 200, data: Data("body".utf8), request: original)
        var changed = response
        changed.data.append(contentsOf: Data("!".utf8))
        changed.statusCode = 201
        changed.request.headers["X-Later"] = "2"
        #expect(response.data == Data("body".utf8))
        #expect(response.statusCode == 200)
        #expect(response.request.headers["X-Later"] == nil)
        #expect(changed.data == Data("body!".utf8) && changed.statusCode == 201 && changed.request.headers["X-Later"] == "2")
    }

    @Test("nested and optional-chained changes land, and a chain through nil changes nothing")
    func nestedChanges() {
        var response = Response(statusCode: 200, request: request())
        response.metrics?.attempt = 2
        #expect(response.metrics == nil)
        response.metrics = ResponseMetrics(startDate: Date(), duration: .milliseconds(5), bytesSent: 0, bytesReceived: 4)
        response.metrics?.attempt = 3
        #expect(response.metrics?.attempt == 3)
        response.request.headers["Accept"] = "text/plain"
        response.request.context[Marker.self] = 7
        #expect(response.request.headers["Accept"] == "text/plain")
        #expect(response.request.context[Marker.self] == 7)
    }

    @Test("a value no copy shares changes its body in place (appending stays linear)")
    func unsharedBodyChangesInPlace() {
        var body = Data(capacity: 1 << 20)
        body.append(Data(repeating: 1, count: 4096))
        var response = Response(statusCode: 200, data: body, request: request())
        body = Data()
        let before = response.data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        for _ in 0..<64 { response.data.append(Data(repeating: 2, count: 100)) }
        let after = response.data.withUnsafeBytes { UInt(bitPattern: $0.baseAddress) }
        #expect(before == after, "the body was copied instead of appended to")
        #expect(response.data.count == 4096 + 6400)

        let shared = response
        response.data.append(Data(repeating: 3, count: 1))
        #expect(shared.data.count == 4096 + 6400, "a copy saw its original's change")
    }

    @Test("a change interrupted by a throw keeps what was written, as a stored property would")
    func changeBeforeAThrowStays() {
        struct Stop: Error {}
        var value = request()
        func change(_ headers: inout HTTPHeaders) throws {
            headers["X-Partial"] = "yes"
            throw Stop()
        }
        #expect(throws: Stop.self) { try change(&value.headers) }
        #expect(value.headers["X-Partial"] == "yes")
        #expect(value.headers["Accept"] == "application/json")
    }

    @Test("two tasks writing a call's storage first both keep their values")
    func callStorageFirstWritesRace() async {
        for _ in 0..<200 {
            let storage = CallStorage()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { storage[First.self] = 1 }
                group.addTask { storage[Second.self] = 2 }
            }
            #expect(storage[First.self] == 1 && storage[Second.self] == 2)
        }
    }

    private enum Marker: RequestContextKey { static let defaultValue = 0 }
    private enum First: RequestContextKey { static let defaultValue = 0 }
    private enum Second: RequestContextKey { static let defaultValue = 0 }
}
