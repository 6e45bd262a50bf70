/// The status-code rules every part of NetKit applies the same way.
package enum StatusRules {
    /// 200-299.
    @inline(__always)
    package static func isSuccess(_ statusCode: Int) -> Bool { (200...299).contains(statusCode) }

    /// Whether a response has no body whatever its headers say (RFC 9110 §6.4.1): an answer to
    /// `HEAD`, an interim 1xx, 204 and 304. `method` in any case.
    package static func hasNoBody(statusCode: Int, method: String) -> Bool {
        statusCode < 200 || statusCode == 204 || statusCode == 304 || method.uppercased() == "HEAD"
    }
}
