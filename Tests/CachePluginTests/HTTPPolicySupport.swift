import Foundation
import NetCore
import NetPlugins

/// One `.http` cache over a stub origin whose answers the test scripts per call, on one storage.
struct HTTPHarness {
    let clock = TestClock()
    let storage: TestStorage
    let server: Server
    let plugin: CachePlugin
    let provider: Provider<Endpoint>

    /// `answer(call, request, now)` gives status, headers and body; `Date` is added when missing.
    init(
        _ kind: StorageKind, name: String = #function, backgroundRevalidation: Bool = false,
        answer: @escaping @Sendable (Int, Request, Date) throws -> (Int, HTTPHeaders, String)
    ) {
        let clock = clock
        storage = kind.make(name)
        let server = Server { call, request in
            let (status, headers, body) = try answer(call, request, clock.now)
            var fields = headers
            if fields["Date"] == nil { fields["Date"] = httpDate(clock.now) }
            return Response(statusCode: status, headers: fields, data: Data(body.utf8), request: request)
        }
        self.server = server
        plugin = CachePlugin(
            storage: CacheStorage(storage.storage), policy: .http, isPrivate: true,
            revalidationTransport: backgroundRevalidation ? server.transport : nil, now: { clock.now })
        provider = Provider<Endpoint>(transport: server.transport, plugins: [plugin])
    }

    /// A GET (or `method`) of `/items` under `.http`, accepting every status.
    func get(
        _ path: String = "items", method: HTTPMethod = .get, headers: [String: String] = [:],
        validation: Validation = .none
    ) async throws -> Response {
        try await provider.request(
            Endpoint(path: path, method: method, headers: headers, validation: validation, cachePolicy: .http))
    }

    /// The request the origin received on call `call` (1-based).
    func sent(_ call: Int) -> Request { server.requests[call - 1] }
}

/// `date` as an IMF-fixdate.
func httpDate(_ date: Date) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "GMT")
    formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
    return formatter.string(from: date)
}
