import Foundation

/// HTTP header fields with case-insensitive names, in the order they were added.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers["content-type"]          // "application/json"
/// headers["X-Trace"] = "1"
/// ```
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The name as it was given (lookups ignore case).
        public var name: String
        /// The value.
        public var value: String
    }

    private var fields: [Field]

    /// Creates empty headers.
    public init() { fields = [] }

    /// Creates headers from a dictionary (its order is not defined, so names are sorted).
    public init(_ dictionary: [String: String]) {
        self.init(fields: dictionary.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
    }

    /// Creates headers from fields in order; a later field replaces an earlier one of the same name.
    public init(fields: [(String, String)]) {
        self.fields = []
        for (name, value) in fields { self[name] = value }
    }

    /// Creates headers from fields whose names are already distinct (any case), in linear time;
    /// for transports that folded repeated names themselves.
    package init(distinctFields: [(name: String, value: String)]) {
        self.fields = distinctFields.map { Field(name: $0.name, value: $0.value) }
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(fields: elements)
    }

    /// The value for `name` (any case), or `nil`. Setting `nil` removes the field.
    public subscript(name: String) -> String? {
        get {
            for field in fields where Self.sameName(field.name, name) { return field.value }
            return nil
        }
        set {
            if let index = fields.firstIndex(where: { Self.sameName($0.name, name) }) {
                if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                fields.append(Field(name: name, value: newValue))
            }
        }
    }

    /// Whether a field named `name` (any case) is present.
    public func contains(_ name: String) -> Bool { self[name] != nil }

    /// These headers with `other`'s fields set over them.
    public func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var merged = self
        for field in other.fields { merged[field.name] = field.value }
        return merged
    }

    /// The number of fields.
    public var count: Int { fields.count }
    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }
    /// The fields as a dictionary keyed by their original names.
    public var dictionary: [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }

    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count && lhs.fields.allSatisfy { rhs[$0.name] == $0.value }
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields.sorted(by: { $0.name.lowercased() < $1.name.lowercased() }) {
            hasher.combine(field.name.lowercased())
            hasher.combine(field.value)
        }
    }

    /// ASCII case-insensitive comparison without allocating.
    package static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        sameName(lhs.utf8, rhs.utf8)
    }

    /// ASCII case-insensitive comparison of two field names as bytes (RFC 9110 §5.1), for code
    /// that has raw header bytes rather than strings (the curl engine's header scan). Inlinable:
    /// the engine calls it for every header line on its loop thread.
    @inlinable
    package static func sameName<Left: Collection<UInt8>, Right: Collection<UInt8>>(_ lhs: Left, _ rhs: Right) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for (a, b) in zip(lhs, rhs) where a != b {
            guard (a | 0x20) == (b | 0x20), (a | 0x20) >= UInt8(ascii: "a"), (a | 0x20) <= UInt8(ascii: "z") else {
                return false
            }
        }
        return true
    }
}
