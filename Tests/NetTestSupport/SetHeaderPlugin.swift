import NetCore

/// Sets one header on every request in `prepare` (as an auth plugin would).
public struct SetHeaderPlugin: Plugin {
    /// The header's name.
    public let name: String
    /// Its value.
    public let value: String

    /// A plugin setting `name: value`.
    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Sets the header.
    public func prepare(_ request: inout Request) async throws -> PrepareAction {
        request.headers[name] = value
        return .proceed
    }
}
