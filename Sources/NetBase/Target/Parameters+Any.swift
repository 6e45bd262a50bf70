import Foundation

extension Parameters {
    /// Parameters from a heterogeneous dictionary, as Moya and Alamofire code builds them
    /// (`[String: Any]`): strings, integers, doubles, bools, `NSNumber`s, `NSNull`, arrays and
    /// nested dictionaries of those. Keys are sorted, so the encoding stays deterministic.
    ///
    /// ```swift
    /// let legacy: [String: Any] = ["page": 2, "filter": ["tag": "swift"], "all": true]
    /// var content: RequestContent { .parameters(try Parameters(any: legacy)) }  // in a throwing context
    /// ```
    /// - Throws: ``NetworkError/encodingFailed(target:reason:underlying:)`` naming the key of a
    ///   value a query, form or JSON body cannot carry (a `Date`, `Data`, a custom type, a
    ///   non-finite number).
    public init(any dictionary: [String: Any]) throws(NetworkError) {
        self.init(try dictionary.sorted { $0.key < $1.key }.map { key, value throws(NetworkError) in (key, try ParameterValue(any: value, at: key)) })
    }
}

extension ParameterValue {
    /// The value for `value`, found at `path` (for the error message).
    init(any value: Any, at path: String) throws(NetworkError) {
        // A Bool first, by its dynamic type: on Apple platforms a boxed number casts to Bool too.
        if type(of: value) == Bool.self, let flag = value as? Bool {
            self = .bool(flag)
            return
        }
        switch value {
        case let value as String: self = .string(value)
        case let value as Int: self = .int(value)
        case let value as Double:
            guard value.isFinite else { throw Self.unsupported(value, at: path, because: "a non-finite number") }
            self = .double(value)
        case let value as ParameterConvertible: self = value.parameterValue
        case let number as NSNumber:
            // Boxed numbers from JSONSerialization or Objective-C: a bool only when it is one.
            if String(cString: number.objCType) == "c", number.intValue == 0 || number.intValue == 1 {
                self = .bool(number.boolValue)
            } else if number.doubleValue.rounded() == number.doubleValue, abs(number.doubleValue) < 9e15 {
                self = .int(number.intValue)
            } else {
                self = .double(number.doubleValue)
            }
        case is NSNull: self = .null
        case let array as [Any]:
            self = .array(try array.enumerated().map { index, element throws(NetworkError) in try ParameterValue(any: element, at: "\(path)[\(index)]") })
        case let dictionary as [String: Any]:
            self = .dictionary(
                Parameters(
                    try dictionary.sorted { $0.key < $1.key }.map { key, element throws(NetworkError) in
                        (key, try ParameterValue(any: element, at: "\(path).\(key)"))
                    }))
        default: throw Self.unsupported(value, at: path, because: "a \(type(of: value))")
        }
    }

    private static func unsupported(_ value: Any, at path: String, because what: String) -> NetworkError {
        .encodingFailed(target: "Parameters(any:)", reason: "the value at \"\(path)\" is \(what), which a query, form or JSON body cannot carry")
    }
}

extension Parameters: Encodable {
    /// Encodes as a JSON object (so `.json(parameters)` sends them as a JSON body); a repeated key
    /// keeps its last value.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: DynamicKey.self)
        for element in elements { try container.encode(element.value, forKey: DynamicKey(element.key)) }
    }
}

extension ParameterValue: Encodable {
    /// Encodes as the JSON value it holds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .bool(let value): try container.encode(value)
        case .null: try container.encodeNil()
        case .array(let values): try container.encode(values)
        case .dictionary(let parameters): try container.encode(parameters)
        }
    }
}

/// A coding key made from any string.
private struct DynamicKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(_ string: String) { stringValue = string }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
