import Foundation

extension Response {
    /// Decodes an empty body the way Moya's `map(_:failsOnEmptyData: false)` does: from `{}`,
    /// then from `[{}]`. An optional type (anything `nil` can stand for) tries `null` first, so
    /// it gets `nil` rather than an empty value.
    func decodeEmptyBody<T: Decodable>(_ type: T.Type, keyPath: String?, using decoder: JSONDecoder) throws(NetworkError) -> T {
        var standIns = ["{}", "[{}]"]
        if T.self is any ExpressibleByNilLiteral.Type { standIns.insert("null", at: 0) }
        var firstError: (any Error)?
        for text in standIns {
            do {
                return try decoder.decode(T.self, from: Data(text.utf8))
            } catch {
                if firstError == nil { firstError = error }
            }
        }
        let typeName = String(describing: T.self)
        throw .decodingFailed(
            type: typeName, keyPath: keyPath,
            reason: "the body is empty and \(typeName) cannot be decoded from \(standIns.joined(separator: " or "))",
            bodyExcerpt: "(empty body)", response: self, underlying: firstError)
    }
}
