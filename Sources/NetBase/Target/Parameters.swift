import Foundation

/// One value in ``Parameters``: a string, number, bool, null, array or nested dictionary.
public enum ParameterValue: Sendable, Hashable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case null
    case array([ParameterValue])
    case dictionary(Parameters)
}

extension ParameterValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral, ExpressibleByNilLiteral
{
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: ParameterValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, ParameterValue)...) {
        self = .dictionary(Parameters(elements.map { ($0.0, $0.1) }))
    }
    public init(nilLiteral: ()) { self = .null }
}

/// A value that can stand in ``Parameters``: `String`, integers, `Double`, `Bool`, arrays and
/// dictionaries of those, ``ParameterValue`` and ``Parameters`` itself.
public protocol ParameterConvertible: Sendable {
    /// This value as a ``ParameterValue``.
    var parameterValue: ParameterValue { get }
}

extension ParameterValue: ParameterConvertible { public var parameterValue: ParameterValue { self } }
extension String: ParameterConvertible { public var parameterValue: ParameterValue { .string(self) } }
extension Substring: ParameterConvertible { public var parameterValue: ParameterValue { .string(String(self)) } }
extension Int: ParameterConvertible { public var parameterValue: ParameterValue { .int(self) } }
extension Int64: ParameterConvertible { public var parameterValue: ParameterValue { .int(Int(self)) } }
extension Int32: ParameterConvertible { public var parameterValue: ParameterValue { .int(Int(self)) } }
extension UInt: ParameterConvertible { public var parameterValue: ParameterValue { .string(String(self)) } }
extension Double: ParameterConvertible { public var parameterValue: ParameterValue { .double(self) } }
extension Float: ParameterConvertible { public var parameterValue: ParameterValue { .double(Double(self)) } }
extension Bool: ParameterConvertible { public var parameterValue: ParameterValue { .bool(self) } }
extension Array: ParameterConvertible where Element: ParameterConvertible {
    public var parameterValue: ParameterValue { .array(map(\.parameterValue)) }
}
extension Optional: ParameterConvertible where Wrapped: ParameterConvertible {
    public var parameterValue: ParameterValue { self.map(\.parameterValue) ?? .null }
}
extension Dictionary: ParameterConvertible where Key == String, Value: ParameterConvertible {
    /// Dictionaries have no order; their keys are sorted so encoding stays deterministic.
    public var parameterValue: ParameterValue {
        .dictionary(Parameters(sorted { $0.key < $1.key }.map { ($0.key, $0.value.parameterValue) }))
    }
}

/// Ordered key-value parameters for URL queries and form bodies.
///
/// Order is kept exactly as written, so the same parameters always encode to the same bytes
/// (which keeps cache keys and signatures stable). Keys may repeat.
///
/// ```swift
/// let parameters: Parameters = ["q": "swift", "page": 2, "tags": ["a", "b"]]
/// ```
public struct Parameters: Sendable, Hashable, ExpressibleByDictionaryLiteral, RandomAccessCollection {
    /// The key-value pairs in order.
    package private(set) var elements: [Element]

    /// One key-value pair.
    public struct Element: Sendable, Hashable {
        /// The parameter name.
        public var key: String
        /// The parameter value.
        public var value: ParameterValue
    }

    /// Creates parameters from pairs, keeping their order.
    public init(_ pairs: [(String, ParameterValue)] = []) {
        elements = pairs.map { Element(key: $0.0, value: $0.1) }
    }

    /// Creates parameters from a literal such as `["q": "swift", "page": 2]`.
    public init(dictionaryLiteral elements: (String, any ParameterConvertible)...) {
        self.init(elements.map { ($0.0, $0.1.parameterValue) })
    }

    public var startIndex: Int { elements.startIndex }
    public var endIndex: Int { elements.endIndex }
    public subscript(position: Int) -> Element { elements[position] }

    /// The first value for `key`, or `nil`. Setting replaces the first value or appends.
    public subscript(key: String) -> ParameterValue? {
        get { elements.first { $0.key == key }?.value }
        set {
            let index = elements.firstIndex { $0.key == key }
            switch (index, newValue) {
            case let (index?, value?): elements[index].value = value
            case let (index?, nil): elements.remove(at: index)
            case let (nil, value?): elements.append(Element(key: key, value: value))
            case (nil, nil): break
            }
        }
    }

    /// These parameters followed by `other`'s; a key present in both takes `other`'s value.
    package func merging(_ other: Parameters) -> Parameters {
        guard !other.isEmpty else { return self }
        guard !isEmpty else { return other }
        let overridden = Set(other.elements.map(\.key))
        var merged = self
        merged.elements.removeAll { overridden.contains($0.key) }
        merged.elements.append(contentsOf: other.elements)
        return merged
    }
}
