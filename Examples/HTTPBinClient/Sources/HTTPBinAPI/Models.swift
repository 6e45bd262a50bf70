/// The JSON body of ``HTTPBin/post(_:)``, which httpbin echoes under `json`.
public struct Payload: Codable, Sendable, Equatable {
    public var name: String
    public var count: Int

    public init(name: String, count: Int) {
        self.name = name
        self.count = count
    }
}

/// A member as ``HTTPBin/register(name:)`` echoes it under `json`.
public struct Member: Decodable, Sendable, Equatable {
    public var id: String
    public var name: String
}
