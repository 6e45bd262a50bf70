import Foundation

/// HTTP header fields with case-insensitive names, in the order they were added.
///
/// ```swift
/// var headers: HTTPHeaders = ["Content-Type": "application/json"]
/// headers["content-type"]          // "application/json"
/// headers["X-Trace"] = "1"
/// ```
///
/// A response may carry a name more than once (`Set-Cookie` is the common case): the fields are
/// kept as the server sent them, ``values(for:)`` returns each, and the subscript joins them with
/// `", "` as RFC 9110 §5.3 allows for every field but `Set-Cookie`.
public struct HTTPHeaders: Sendable, Hashable, ExpressibleByDictionaryLiteral, Sequence, CustomStringConvertible {
    /// One header field.
    public struct Field: Sendable, Hashable {
        /// The name as it was given (lookups ignore case).
        public var name: String
        /// The value.
        public var value: String

        /// Creates a field.
        package init(name: String, value: String) {
            self.name = name
            self.value = value
        }
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

    /// Creates headers that keep every field in order, repeated names included: a response's
    /// fields as received, or a copy of another ``HTTPHeaders`` that must not fold its repeats.
    package init(allFields: [Field]) {
        self.fields = allFields
    }

    public init(dictionaryLiteral elements: (String, String)...) {
        self.init(fields: elements)
    }

    /// The value for `name` (any case), or `nil`; the values of a repeated name joined with
    /// `", "`. Setting replaces every field of that name with one; setting `nil` removes them.
    public subscript(name: String) -> String? {
        get {
            var found: String?
            for field in fields where Self.sameName(field.name, name) {
                if let first = found { found = first + ", " + field.value } else { found = field.value }
            }
            return found
        }
        set {
            guard let index = fields.firstIndex(where: { Self.sameName($0.name, name) }) else {
                if let newValue { fields.append(Field(name: name, value: newValue)) }
                return
            }
            if let newValue {
                fields[index].value = newValue
                var kept = false
                fields.removeAll { field in
                    guard Self.sameName(field.name, name) else { return false }
                    defer { kept = true }
                    return kept
                }
            } else {
                fields.removeAll { Self.sameName($0.name, name) }
            }
        }
    }

    /// The value of every field named `name` (any case), in the order received; each
    /// `Set-Cookie` field is one element, however many commas its value holds.
    public func values(for name: String) -> [String] {
        fields.filter { Self.sameName($0.name, name) }.map(\.value)
    }

    /// Appends a field, keeping the fields of the same name already present.
    public mutating func add(name: String, value: String) {
        fields.append(Field(name: name, value: value))
    }

    /// Whether a field named `name` (any case) is present.
    public func contains(_ name: String) -> Bool {
        fields.contains { Self.sameName($0.name, name) }
    }

    /// These headers with `other`'s fields set over them: each name `other` holds replaces
    /// every field of that name here (all of `other`'s fields of it are kept).
    package func merging(_ other: HTTPHeaders) -> HTTPHeaders {
        var merged = self
        for (position, field) in other.fields.enumerated() {
            let repeated = other.fields[..<position].contains { Self.sameName($0.name, field.name) }
            if repeated { merged.add(name: field.name, value: field.value) } else { merged[field.name] = field.value }
        }
        return merged
    }

    /// The number of fields (a repeated name counts once per field).
    public var count: Int { fields.count }
    /// Whether there are no fields.
    public var isEmpty: Bool { fields.isEmpty }
    /// The fields as a dictionary keyed by their names as first spelled (repeated values joined
    /// with `", "`, whatever the case of the later names).
    public var dictionary: [String: String] {
        var result: [String: String] = [:]
        var spelling: [String: String] = [:]
        for field in fields {
            let key = field.name.lowercased()
            if let name = spelling[key] {
                result[name, default: ""] += ", " + field.value
            } else {
                spelling[key] = field.name
                result[field.name] = field.value
            }
        }
        return result
    }

    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    public var description: String { fields.map { "\($0.name): \($0.value)" }.joined(separator: "\n") }

    /// Equal when both hold the same values for the same names (any case), in the same order
    /// within a name; the order between different names does not count.
    public static func == (lhs: HTTPHeaders, rhs: HTTPHeaders) -> Bool {
        lhs.fields.count == rhs.fields.count && lhs.canonicalFields.elementsEqual(rhs.canonicalFields, by: ==)
    }

    public func hash(into hasher: inout Hasher) {
        for field in canonicalFields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }

    /// Lower-cased names, sorted by name and stably so (the order within a name is kept).
    private var canonicalFields: [(name: String, value: String)] {
        fields.enumerated()
            .map { (name: $0.element.name.lowercased(), value: $0.element.value, position: $0.offset) }
            .sorted { ($0.name, $0.position) < ($1.name, $1.position) }
            .map { (name: $0.name, value: $0.value) }
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
