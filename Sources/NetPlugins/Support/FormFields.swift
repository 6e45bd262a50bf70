import NetToolbox
import NetCore

/// `application/x-www-form-urlencoded` text (a form body, or a URL's percent-encoded query)
/// decoded into its fields: one reading for HAR's `postData.params`, replay's body matching and
/// replay's URL matching.
enum FormFields {
    /// The `name=value` fields of `text` in order. `+` reads as a space; an escape that does not
    /// decode stays as written; a field without `=` has the empty value; empty fields (`a&&b`)
    /// are skipped.
    static func decode(_ text: String) -> [(name: String, value: String)] {
        text.split(separator: "&").map { field in
            let parts = field.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            return (decodePart(parts[0]), parts.count > 1 ? decodePart(parts[1]) : "")
        }
    }

    private static func decodePart(_ part: Substring) -> String {
        PercentEncoding.decode(String(part), plusAsSpace: true) ?? String(part)
    }
}
