import NetToolbox
import Foundation

/// How ``Parameters`` turn into `application/x-www-form-urlencoded` text (URL queries and form
/// bodies). Output is deterministic: parameters keep their order.
public struct ParameterEncoding: Sendable, Hashable {
    /// How array values are written.
    public enum ArrayStyle: Sendable, Hashable {
        /// `tags[]=a&tags[]=b` (Rails, PHP, Alamofire's default).
        case brackets
        /// `tags=a&tags=b`.
        case repeatedKeys
        /// `tags[0]=a&tags[1]=b`.
        case indexed
    }

    /// How booleans are written.
    public enum BoolStyle: Sendable, Hashable {
        /// `true` / `false`.
        case literal
        /// `1` / `0`.
        case numeric
    }

    /// How nested dictionaries name their keys.
    public enum DictionaryStyle: Sendable, Hashable {
        /// `user[name]=ada` (Rails, PHP, Alamofire's default).
        case brackets
        /// `user.name=ada`.
        case dots
    }

    /// What a `nil` value becomes.
    public enum NilStyle: Sendable, Hashable {
        /// A bare key: `flag` (the default, as in earlier releases).
        case bareKey
        /// Nothing: the pair is left out.
        case dropped
    }

    /// How spaces are written.
    public enum SpaceStyle: Sendable, Hashable {
        /// `%20` (RFC 3986; the default).
        case percentEncoded
        /// `+` (HTML forms, `application/x-www-form-urlencoded`); a literal `+` is then `%2B`.
        case plus
    }

    /// Array style; default ``ArrayStyle/brackets``.
    public var arrayStyle: ArrayStyle
    /// Bool style; default ``BoolStyle/literal``.
    public var boolStyle: BoolStyle
    /// How nested dictionary keys are written. Default: brackets.
    public var dictionaryStyle: DictionaryStyle = .brackets
    /// What `nil` values become. Default: a bare key.
    public var nilStyle: NilStyle = .bareKey
    /// How spaces are written. Default: `%20`.
    public var spaceStyle: SpaceStyle = .percentEncoded

    /// Creates an encoding; every option has the default shown.
    public init(
        arrayStyle: ArrayStyle = .brackets, boolStyle: BoolStyle = .literal, dictionaryStyle: DictionaryStyle = .brackets,
        nilStyle: NilStyle = .bareKey, spaceStyle: SpaceStyle = .percentEncoded
    ) {
        self.arrayStyle = arrayStyle
        self.boolStyle = boolStyle
        self.dictionaryStyle = dictionaryStyle
        self.nilStyle = nilStyle
        self.spaceStyle = spaceStyle
    }

    /// Encodes `parameters` as `key=value` pairs joined by `&`, percent-encoded per RFC 3986
    /// (only unreserved characters stay literal). Nested dictionaries become `outer[inner]`.
    package func encode(_ parameters: Parameters) -> String {
        var pairs: [String] = []
        pairs.reserveCapacity(parameters.count)
        for element in parameters {
            append(element.key, element.value, to: &pairs)
        }
        return pairs.joined(separator: "&")
    }

    private func append(_ key: String, _ value: ParameterValue, to pairs: inout [String]) {
        switch value {
        case .dictionary(let nested):
            for element in nested {
                let nestedKey = dictionaryStyle == .dots ? "\(key).\(element.key)" : "\(key)[\(element.key)]"
                append(nestedKey, element.value, to: &pairs)
            }
        case .array(let values):
            for (index, item) in values.enumerated() {
                let itemKey =
                    switch arrayStyle {
                    case .brackets: "\(key)[]"
                    case .repeatedKeys: key
                    case .indexed: "\(key)[\(index)]"
                    }
                append(itemKey, item, to: &pairs)
            }
        case .null:
            if nilStyle == .bareKey { pairs.append(escape(key)) }
        default:
            pairs.append(escape(key) + "=" + escape(scalarText(value)))
        }
    }

    /// Percent-encodes `text`, with `+` for spaces when asked.
    private func escape(_ text: String) -> String {
        let encoded = PercentEncoding.encode(text)
        return spaceStyle == .plus ? encoded.replacingOccurrences(of: "%20", with: "+") : encoded
    }

    private func scalarText(_ value: ParameterValue) -> String {
        switch value {
        case .string(let string): string
        case .int(let int): String(int)
        case .double(let double):
            double.isFinite && double == double.rounded() && abs(double) < 1e15
                ? String(Int64(double)) : String(double)
        case .bool(let bool): boolStyle == .literal ? (bool ? "true" : "false") : (bool ? "1" : "0")
        case .null, .array, .dictionary: ""
        }
    }
}
