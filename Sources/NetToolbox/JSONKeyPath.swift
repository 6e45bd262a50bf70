import Foundation

/// A dot-separated path into parsed JSON, such as `"data.user"` or `"meta.status"`: each part is a
/// key of a JSON object (as `JSONSerialization` returns it).
package struct JSONKeyPath {
    /// What a walk along the path found.
    package enum Lookup {
        /// The value at the end of the path (`NSNull` for a JSON `null`).
        case found(Any)
        /// `key` has no value where the walk reached it (or the value there is not an object).
        case missing(key: Substring)
    }

    /// The keys, in order; empty parts are skipped (`"a..b"` is `a`, `b`).
    package let keys: [Substring]

    /// The path written as `text`.
    package init(_ text: String) {
        keys = text.split(separator: ".")
    }

    /// Walks from `root` through the keys.
    package func lookup(in root: Any) -> Lookup {
        var node = root
        for key in keys {
            guard let object = node as? [String: Any], let child = object[String(key)] else { return .missing(key: key) }
            node = child
        }
        return .found(node)
    }

    /// The value at the path, or `nil` when it is missing or JSON `null`.
    package func value(in root: Any) -> Any? {
        guard case .found(let value) = lookup(in: root), !(value is NSNull) else { return nil }
        return value
    }
}
